import { Agent, request } from 'undici';

/**
 * What both raw batch baselines do per chunk: undici `request` on a keep-alive Agent POSTs a JSON
 * body to /taxvalidation/v1/validations/batch and reads the whole answer; anything but 202 throws.
 * @param {string} baseUrl
 * @param {string} key
 */
export function batchPoster(baseUrl, key) {
  const agent = new Agent({ keepAliveTimeout: 4000 });
  const url = `${baseUrl}/taxvalidation/v1/validations/batch`;
  const headers = {
    authorization: `Bearer ${key}`,
    accept: 'application/json',
    'content-type': 'application/json',
  };
  return {
    /**
     * @param {string} body
     * @returns {Promise<Array<{ validationRequestId?: string }>>} the accepted entries
     */
    async post(body) {
      const res = await request(url, { method: 'POST', headers, body, dispatcher: agent });
      const text = await res.body.text();
      if (res.statusCode !== 202)
        throw new Error(`batch POST answered ${res.statusCode}: ${text.slice(0, 300)}`);
      return JSON.parse(text).items;
    },
    close: () => agent.close(),
  };
}
