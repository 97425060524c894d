import type { RequestHandler } from 'express';
import type { BotCheckClients } from '../botcheck/verify.js';
import {
  type BotCheckAnswer,
  type BotCheckOutcome,
  type VerifyRequestOptions,
  validateRequestOptions,
  verifyRequest,
} from '../botcheck/verify-request.js';

export {
  type BotCheckAnswer,
  type BotCheckDecisionEvent,
  type BotCheckOutcome,
  botCheckOf,
  DEFAULT_MAX_BODY_BYTES,
  type VerifyRequestOptions,
} from '../botcheck/verify-request.js';

declare global {
  namespace Express {
    interface Request {
      /** Set by `requireHuman` (svc-sdk/express): the bot-check outcome of this request. */
      botCheck?: BotCheckOutcome;
    }
  }
}

/** Options of {@link requireHuman}: those of `verifyRequest` (policy, binding, failOpen, hooks...). */
export type RequireHumanOptions = VerifyRequestOptions;

/**
 * Express middleware (Express 4.21+ and 5) that lets a request through only when its bot check
 * accepts. The token is read from the `svc-verification-token` header, else from `req.body` when a
 * body parser ran (`express.urlencoded()`, `express.json()`, multer for multipart), else from the
 * raw body: urlencoded, JSON or multipart, at most `maxBodyBytes` (that consumes the stream: put
 * a body parser first when the handler reads the body).
 *
 * - accept: `next()`; the outcome is in `req.botCheck` and `res.locals.botCheck`.
 * - extra check needed: 401 `{"decision":"challenge"}` (show the extra check, submit again).
 * - reject: 403 `{"decision":"reject"}`; a raw body over the limit: 413, connection closed.
 *
 * The visitor never learns why; reasons go to `onDecision` and `req.botCheck`. Fails closed: a
 * missing, malformed or replayed token and an unreachable service reject (`failOpen: true`
 * admits only for an outage). Bad options throw here, at startup; an error `onDecision` throws
 * goes to `next(error)`.
 * Express is not loaded by this module; it only types the handler.
 *
 * @example
 * import { requireHuman } from 'svc-sdk/express';
 * app.post('/contact', express.urlencoded({ extended: false }), requireHuman(client, {
 *   policy: { kind: 'multiStage' },
 *   onDecision: (e) => log.info({ decision: e.decision, reasons: e.reasons }),
 * }), handler);
 */
export function requireHuman(client: BotCheckClients, options: RequireHumanOptions = {}): RequestHandler {
  validateRequestOptions(options);
  return async (req, res, next) => {
    let answer: BotCheckAnswer;
    try {
      answer = await verifyRequest(client, req, options);
    } catch (error) {
      // Express 4 ignores a rejected promise (the request would hang): hand the error on.
      next(error);
      return;
    }
    req.botCheck = answer.outcome;
    res.locals.botCheck = answer.outcome;
    if (answer.decision === 'accept') {
      next();
      return;
    }
    if (answer.status === 413) res.set('connection', 'close');
    res.status(answer.status).json(answer.body);
  };
}
