// The bot-check conformance checks, run the same way in every runtime (Node, Deno, Bun, workerd,
// edge-runtime). Plain ESM on Web APIs only: no Node built-in, no test framework. It reports what
// it observed (decisions, reason codes, error names); test/runtimes/conformance.test.ts holds
// the expectations. `lib` is the `svc-sdk/botcheck` entry or the root entry.

import { runChecks } from './run-checks.mjs';

/**
 * @typedef {object} ConformanceConfig
 * @property {string} baseUrl The reference server.
 * @property {string} downUrl A loopback port nobody listens on.
 * @property {string} apiKey A project key of the reference server.
 * @property {Record<string, string>} tokens Tokens of fresh verifications: accept, reject,
 *   replay, failOpenOutage, webRequest, multipart.
 * @property {string} notFoundId A well-formed id the service does not know (404).
 * @property {object[]} batchRows Rows for `client.tax.runBatch` (root entry only).
 */

const codes = (outcome) => outcome.reasons.map((reason) => reason.code);

const observe = (outcome) => ({
  decision: outcome.decision,
  reasons: codes(outcome),
  error: outcome.error === undefined ? undefined : outcome.error.name,
});

/** A standalone client of the botcheck entry, or the bot-check client of an `SvcClient` (root entry). */
function clientOf(lib, options) {
  // No retry of a refused connection: the outage checks would wait for the backoff.
  const all = { ...options, maxRetries: 0 };
  return lib.SvcClient === undefined ? new lib.BotCheckClient(all) : new lib.SvcClient(all).botCheck;
}

/** The token field in an HTML form body. */
const urlencoded = (token) => new URLSearchParams({ message: 'hi', 'svc-verification-token': token });

/** A multipart form with a file field, as a browser builds it. */
function multipartForm(token) {
  const form = new FormData();
  form.append('message', 'hi');
  form.append('attachment', new Blob([new Uint8Array([0, 255, 254, 10])]), 'photo.bin');
  form.append('svc-verification-token', token);
  return form;
}

/**
 * Runs every check; never throws (a check that throws is reported with its error).
 * @param {any} lib
 * @param {ConformanceConfig} config
 */
export async function runConformance(lib, config) {
  const up = clientOf(lib, { baseUrl: config.baseUrl, apiKey: config.apiKey, timeoutMs: 5000 });
  const down = clientOf(lib, { baseUrl: config.downUrl, apiKey: config.apiKey, timeoutMs: 5000 });
  const checks = {
    accept: async () => observe(await lib.verify(up, config.tokens.accept)),
    reject: async () => observe(await lib.verify(up, config.tokens.reject)),
    replay: async () => {
      const first = await lib.verify(up, config.tokens.replay);
      const second = await lib.verify(up, config.tokens.replay);
      return { first: observe(first), second: observe(second) };
    },
    malformedToken: async () => observe(await lib.verify(up, 'not a token', { failOpen: true })),
    serviceDownFailsClosed: async () => observe(await lib.verify(down, config.tokens.accept)),
    failOpenOnOutage: async () => {
      const first = await lib.verify(down, config.tokens.failOpenOutage, { failOpen: true });
      const repeat = await lib.verify(down, config.tokens.failOpenOutage, { failOpen: true });
      return { first: observe(first), repeat: observe(repeat) };
    },
    nonexistentIdUnderFailOpen: async () =>
      observe(await lib.verify(up, config.notFoundId, { failOpen: true })),
    webRequest: async () => {
      const request = new Request('https://www.example.com/contact', {
        method: 'POST',
        body: urlencoded(config.tokens.webRequest),
      });
      const check = await lib.verifyRequest(up, request);
      const form = await request.formData();
      return { status: check.status, ...observe(check.outcome), handlerSees: form.get('message') };
    },
    multipartForm: async () => {
      const request = new Request('https://www.example.com/contact', {
        method: 'POST',
        body: multipartForm(config.tokens.multipart),
      });
      const check = await lib.verifyRequest(up, request);
      const form = await request.formData();
      const file = form.get('attachment');
      return {
        status: check.status,
        ...observe(check.outcome),
        handlerSees: typeof file === 'string' ? 'text' : [...new Uint8Array(await file.arrayBuffer())],
      };
    },
    // The root entry's batch runner: its idempotency keys must be the same bytes on every runtime.
    batchKeys: async () => {
      if (lib.SvcClient === undefined) return { skipped: 'not in the botcheck entry' };
      const client = new lib.SvcClient({ baseUrl: config.baseUrl, apiKey: config.apiKey, maxRetries: 0 });
      const rows = [];
      for await (const r of client.tax.runBatch(config.batchRows, { runId: 'conformance' }))
        rows.push({ row: r.row, status: r.status, key: r.idempotencyKey });
      return rows;
    },
  };
  return runChecks(checks);
}
