/**
 * Bot check on a plain `node:http` form endpoint with `verifyRequest` (svc-sdk/http): it reads
 * `svc-verification-token` from the header or the urlencoded/JSON body (at most 64 KiB), verifies
 * it and says how to answer. No framework needed; the same call takes a Web `Request`.
 *
 * In your app, import from 'svc-sdk' and 'svc-sdk/http' instead of '../src/...'.
 */
import { createServer, type RequestListener, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type VerifyRequestOptions, verifyRequest } from '../src/botcheck/verify-request.js';
import { SvcClient } from '../src/index.js';

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    // After a body over the limit the rest of it is not read: close instead of draining it.
    ...(status === 413 && { connection: 'close' }),
  });
  res.end(JSON.stringify(body));
}

/**
 * A request listener for `POST` form submissions (urlencoded or JSON): 200 when the bot check
 * accepts, 401 when it asks for an extra check, 403 when it rejects, 413 for a body over the limit.
 */
export function createContactFormHandler(
  client: SvcClient,
  options: VerifyRequestOptions = {},
): RequestListener {
  return (req, res) => {
    void (async () => {
      if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
      const check = await verifyRequest(client, req, {
        // Log the reasons for support; never show them to a possible bot.
        onDecision: (e) =>
          console.info(`bot check ${e.decision}: ${e.reasons.map((r) => r.code).join(', ')}`),
        ...options,
      });
      if (check.decision !== 'accept') return send(res, check.status, check.body);
      // The body was read by verifyRequest; the form's other fields are in check.bodyText.
      const fields = new URLSearchParams(check.bodyText ?? '');
      send(res, 200, { decision: 'accept', message: fields.get('message') });
    })().catch(() => send(res, 500, { error: 'internal error' }));
  };
}

// `SVC_BASE_URL=... SVC_API_KEY=... npx tsx examples/botcheck-node-http.ts`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const client = SvcClient.fromEnv();
  const port = Number(process.env.PORT ?? 3000);
  createServer(createContactFormHandler(client)).listen(port, '127.0.0.1', () => {
    console.info(`contact form on http://127.0.0.1:${port}/ (POST svc-verification-token)`);
  });
}
