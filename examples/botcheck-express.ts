/**
 * Bot check as Express 5 middleware: `requireHuman(client)` in front of any form route. It reads
 * `svc-verification-token` from the parsed body, verifies it and lets the request through only
 * when the decision is accept.
 *
 *   accept    -> next(); the outcome is in `res.locals.botCheck`
 *   challenge -> 401 {decision: 'challenge'}: the page should show the extra check (a second
 *                captcha, an e-mail code, ...) and submit again with a new token. The same status
 *                as the node:http and Fastify examples; 401 because the client can retry with
 *                better proof, unlike 403.
 *   reject    -> 403 {decision: 'reject'}
 *
 * Fail closed: a missing or malformed token, an unreachable service, a consumed or expired result
 * all reject (unless `failOpen` is set, which only covers an unreachable service).
 *
 * In your app, import from 'svc-sdk' instead of '../src/index.js'.
 */
import { fileURLToPath } from 'node:url';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import {
  type EvaluationPolicy,
  extractToken,
  SvcClient,
  TOKEN_FIELD,
  type VerifyOutcome,
  validatePolicy,
  verify,
} from '../src/index.js';

/** Options of {@link requireHuman}. */
export interface RequireHumanOptions {
  /** How a result becomes a decision. Default: threshold 0.5. */
  policy?: EvaluationPolicy;
  /** Accept when the bot-check service is unreachable. Default false (fail closed). */
  failOpen?: boolean;
  /** Which bot-check API to ask. Default `current`. */
  api?: 'current' | 'legacy';
  /** Called with every outcome, e.g. to log the reasons (never show them to a possible bot). */
  onOutcome?: (outcome: VerifyOutcome<unknown>) => void;
}

const STATUS = { challenge: 401, reject: 403 } as const;

/**
 * Express middleware that lets a request through only when its bot check accepts. Needs a body
 * parser in front of it (`express.urlencoded()` or `express.json()`).
 */
export function requireHuman(client: SvcClient, options: RequireHumanOptions = {}): RequestHandler {
  const { policy, failOpen = false, api = 'current', onOutcome } = options;
  // A bad policy is a programming error: fail at startup, not on the first visitor.
  if (policy) validatePolicy(policy);
  return async (req, res, next) => {
    // Express 5 passes a rejected promise to the error handler: the request still never gets through.
    const outcome = await verify(client, extractToken(req.body), {
      ...(policy && { policy }),
      failOpen,
      api,
    });
    onOutcome?.(outcome);
    if (outcome.decision === 'accept') {
      res.locals.botCheck = outcome;
      next();
      return;
    }
    res.status(STATUS[outcome.decision]).json({ decision: outcome.decision });
  };
}

/** A contact form endpoint guarded by {@link requireHuman}. */
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
    onOutcome: (o) => console.info(`bot check ${o.decision}: ${o.reasons.map((r) => r.code).join(', ')}`),
  }).listen(port, '127.0.0.1', () => {
    console.info(`contact form on http://127.0.0.1:${port}/contact (POST ${TOKEN_FIELD})`);
  });
}
