/**
 * Bot check as Express 5 middleware from svc-sdk/express: `requireHuman(client, options)` in front
 * of any form route.
 *
 *   accept    -> next(); the outcome is in `req.botCheck` (and `res.locals.botCheck`)
 *   challenge -> 401 {decision: 'challenge'}: show the extra check, submit again with a new token
 *   reject    -> 403 {decision: 'reject'}
 *
 * In your app, import from 'svc-sdk' and 'svc-sdk/express' instead of '../src/...'.
 */
import { fileURLToPath } from 'node:url';
import express, { type ErrorRequestHandler, type Express } from 'express';
import { type RequireHumanOptions, requireHuman } from '../src/adapters/express.js';
import { TOKEN_FIELD } from '../src/botcheck/index.js';
import { SvcClient } from '../src/index.js';

/** A contact form endpoint guarded by {@link requireHuman}; forms and JSON bodies up to 64 KiB. */
export function createApp(client: SvcClient, options: RequireHumanOptions = {}): Express {
  const app = express();
  app.use(express.urlencoded({ extended: false, limit: '64kb' }));
  app.use(express.json({ limit: '64kb' }));
  app.post('/contact', requireHuman(client, options), (req, res) => {
    const { [TOKEN_FIELD]: _token, ...fields } = (req.body ?? {}) as Record<string, unknown>;
    res.json({ received: Object.keys(fields), decision: 'accept' });
  });
  // Body parser errors keep their 4xx status; anything else is a plain 500 without a stack trace.
  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    const status = Number((error as { status?: unknown }).status);
    res.status(status >= 400 && status < 500 ? status : 500).json({ error: 'request failed' });
  };
  app.use(onError);
  return app;
}

// `SVC_BASE_URL=... SVC_API_KEY=... npx tsx examples/botcheck-express.ts`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000);
  createApp(SvcClient.fromEnv(), {
    onDecision: (e) => console.info(`bot check ${e.decision}: ${e.reasons.map((r) => r.code).join(', ')}`),
  }).listen(port, '127.0.0.1', () => {
    console.info(`contact form on http://127.0.0.1:${port}/contact (POST ${TOKEN_FIELD})`);
  });
}
