/**
 * Bot check as a Fastify 5 `preHandler` hook from svc-sdk/fastify: `requireHuman(client, options)`
 * on any form route.
 *
 *   accept    -> the handler runs; the outcome is in `request.botCheck`
 *   challenge -> 401 {decision: 'challenge'}: show the extra check, submit again with a new token
 *   reject    -> 403 {decision: 'reject'}
 *
 * In your app, import from 'svc-sdk' and 'svc-sdk/fastify' instead of '../src/...'.
 */
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { type RequireHumanOptions, requireHuman } from '../src/adapters/fastify.js';
import { TOKEN_FIELD } from '../src/botcheck/index.js';
import { SvcClient } from '../src/index.js';

/** A contact form endpoint guarded by {@link requireHuman}; forms and JSON bodies up to 64 KiB. */
export function buildServer(
  client: SvcClient,
  options: RequireHumanOptions & { logger?: boolean } = {},
): FastifyInstance {
  const { logger = false, ...checkOptions } = options;
  const app = Fastify({ logger, bodyLimit: 64 * 1024 });
  app.decorateRequest('botCheck', undefined);
  // Fastify parses JSON only; plain HTML forms post urlencoded bodies. URLSearchParams keeps a
  // field sent twice visible, so an ambiguous token is refused.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, new URLSearchParams(body as string));
  });
  app.post(
    '/contact',
    {
      preHandler: requireHuman(client, {
        // Log the reasons for support; never show them to a possible bot.
        onDecision: (e) =>
          app.log.info({ decision: e.decision, reasons: e.reasons.map((r) => r.code) }, 'bot check'),
        ...checkOptions,
      }),
    },
    async (request) => {
      const body = request.body;
      const fields = body instanceof URLSearchParams ? [...body.keys()] : Object.keys(body ?? {});
      return { received: [...new Set(fields)].filter((f) => f !== TOKEN_FIELD), decision: 'accept' };
    },
  );
  return app;
}

// `SVC_BASE_URL=... SVC_API_KEY=... npx tsx examples/botcheck-fastify.ts`
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 3000);
  const app = buildServer(SvcClient.fromEnv(), { logger: true });
  await app.listen({ port, host: '127.0.0.1' });
}
