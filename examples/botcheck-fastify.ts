/**
 * Bot check as a Fastify 5 `preHandler` hook: `requireHuman(client)` on any form route. It reads
 * `svc-verification-token` from the parsed body, verifies it and lets the request through only
 * when the decision is accept.
 *
 *   accept    -> the handler runs; the outcome is in `request.botCheck`
 *   challenge -> 401 {decision: 'challenge'}: show the extra check, submit again with a new token
 *                (the same status as the node:http and Express examples)
 *   reject    -> 403 {decision: 'reject'}
 *
 * Fail closed: a missing or malformed token, an unreachable service, a consumed or expired result
 * all reject (unless `failOpen` is set, which only covers an unreachable service).
 *
 * In your app, import from 'svc-sdk' instead of '../src/index.js'.
 */
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type preHandlerAsyncHookHandler } from 'fastify';
import {
  type EvaluationPolicy,
  extractToken,
  SvcClient,
  TOKEN_FIELD,
  type VerifyOutcome,
  validatePolicy,
  verify,
} from '../src/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by {@link requireHuman} when the bot check accepted. */
    botCheck: VerifyOutcome<unknown> | null;
  }
}

/** Options of {@link requireHuman}. */
export interface RequireHumanOptions {
  /** How a result becomes a decision. Default: threshold 0.5. */
  policy?: EvaluationPolicy;
  /** Accept when the bot-check service is unreachable. Default false (fail closed). */
  failOpen?: boolean;
  /** Which bot-check API to ask. Default `current`. */
  api?: 'current' | 'legacy';
}

const STATUS = { challenge: 401, reject: 403 } as const;

/** A `preHandler` hook that ends the request with 401 or 403 unless its bot check accepts. */
export function requireHuman(
  client: SvcClient,
  options: RequireHumanOptions = {},
): preHandlerAsyncHookHandler {
  const { policy, failOpen = false, api = 'current' } = options;
  // A bad policy is a programming error: fail at startup, not on the first visitor.
  if (policy) validatePolicy(policy);
  return async (request, reply) => {
    const outcome = await verify(client, extractToken(request.body), {
      ...(policy && { policy }),
      failOpen,
      api,
    });
    // Log the reasons for support; never show them to a possible bot.
    request.log.info(
      { decision: outcome.decision, reasons: outcome.reasons.map((r) => r.code) },
      'bot check',
    );
    if (outcome.decision === 'accept') {
      request.botCheck = outcome;
      return;
    }
    return reply.code(STATUS[outcome.decision]).send({ decision: outcome.decision });
  };
}

/** A contact form endpoint guarded by {@link requireHuman}; forms and JSON bodies. */
export function buildServer(
  client: SvcClient,
  options: RequireHumanOptions & { logger?: boolean } = {},
): FastifyInstance {
  const { logger = false, ...checkOptions } = options;
  const app = Fastify({ logger, bodyLimit: 64 * 1024 });
  app.decorateRequest('botCheck', null);
  // Fastify parses JSON only; plain HTML forms post urlencoded bodies. URLSearchParams keeps a
  // field sent twice visible, so extractToken can refuse an ambiguous token.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, new URLSearchParams(body as string));
  });
  app.post('/contact', { preHandler: requireHuman(client, checkOptions) }, async (request) => {
    const body = request.body;
    const fields = body instanceof URLSearchParams ? [...body.keys()] : Object.keys(body ?? {});
    return { received: [...new Set(fields)].filter((f) => f !== TOKEN_FIELD), decision: 'accept' };
  });
  return app;
}

// `SVC_BASE_URL=... SVC_API_KEY=... npx tsx examples/botcheck-fastify.ts`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000);
  const app = buildServer(SvcClient.fromEnv(), { logger: true });
  await app.listen({ port, host: '127.0.0.1' });
}
