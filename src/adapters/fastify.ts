import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BotCheckClients } from '../botcheck/verify.js';
import {
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
  type VerifyRequestOptions,
} from '../botcheck/verify-request.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireHuman` (svc-sdk/fastify): the bot-check outcome of this request. */
    botCheck?: BotCheckOutcome;
  }
}

/**
 * Options of {@link requireHuman}: those of `verifyRequest`. `maxBodyBytes` does not apply:
 * Fastify parses the body itself, within its own `bodyLimit` (413 past it).
 */
export type RequireHumanOptions = VerifyRequestOptions;

/** A Fastify `preHandler` hook, as {@link requireHuman} returns it. */
export type RequireHumanHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * A Fastify 5 `preHandler` hook that ends the request unless its bot check accepts. The token is
 * read from the `svc-verification-token` header, else from the parsed body (JSON; for HTML forms
 * add an `application/x-www-form-urlencoded` parser).
 *
 * - accept: the route handler runs; the outcome is in `request.botCheck`.
 * - extra check needed: 401 `{"decision":"challenge"}`; reject: 403 `{"decision":"reject"}`.
 *
 * The visitor never learns why; reasons go to `onDecision` and `request.botCheck`. Fails closed
 * like `verify`. Bad options throw here, at startup. Fastify is not loaded by this module.
 *
 * @example
 * import { requireHuman } from 'svc-sdk/fastify';
 * app.post('/contact', { preHandler: requireHuman(client, { policy: { kind: 'multiStage' } }) }, handler);
 */
export function requireHuman(client: BotCheckClients, options: RequireHumanOptions = {}): RequireHumanHook {
  validateRequestOptions(options);
  return async (request, reply) => {
    const answer = await verifyRequest(client, request, options);
    request.botCheck = answer.outcome;
    if (answer.decision !== 'accept') return reply.code(answer.status).send(answer.body);
    return undefined;
  };
}
