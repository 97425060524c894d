import * as z from 'zod/mini';
import { toIssues } from '../core/zod-issues.js';
import { API_FAULT_KINDS, FAULT_KINDS, type FaultConfig } from './faults.js';
import { BODY_LIMITS, readJson, sendEmpty, sendJson } from './http-io.js';
import type { ServerModule } from './module.js';
import { HttpProblem } from './problem.js';
import type { RateLimitConfig } from './rate-limit.js';
import type { ServerState } from './state.js';

/** Body of `POST /__admin/clock`: advance, set or freeze the server clock. */
export const ClockBody = z.union([
  z.strictObject({ advanceMs: z.number().check(z.int()).check(z.gte(0)), frozen: z.optional(z.boolean()) }),
  z.strictObject({
    now: z.union([z.number().check(z.int()), z.iso.datetime({ offset: true })]),
    frozen: z.optional(z.boolean()),
  }),
  z.strictObject({ frozen: z.boolean() }),
]);

/** Body of `POST /__admin/faults`: fault injection settings. */
export const FaultsBody = z.strictObject({
  rate: z.number().check(z.gte(0)).check(z.lte(1)),
  kinds: z._default(z.array(z.enum(FAULT_KINDS)), [...API_FAULT_KINDS]),
  seed: z._default(z.number().check(z.int()), 1),
  slowMs: z.optional(z.number().check(z.int()).check(z.gt(0))),
});

/** Body of `POST /__admin/rate-limit`: the API's rate limiter; `perSecond` 0 switches it off. */
export const RateLimitBody = z.strictObject({
  perSecond: z.number().check(z.gte(0)).check(z.lte(100_000)),
  burst: z.optional(z.number().check(z.int()).check(z.gte(1)).check(z.lte(100_000))),
  retryAfter: z._default(z.boolean(), true),
});

/**
 * Parses an admin body with a schema; 422 with every issue otherwise, 413 past `limit` bytes
 * (default {@link BODY_LIMITS}`.admin`, 64 KiB).
 */
export async function adminBody<T>(
  req: Parameters<typeof readJson>[0],
  schema: z.core.$ZodType<T>,
  limit: number = BODY_LIMITS.admin,
): Promise<T> {
  const parsed = z.safeParse(schema, (await readJson(req, limit)) ?? {});
  if (!parsed.success) {
    throw new HttpProblem(422, 'Invalid admin request', toIssues(parsed.error));
  }
  return parsed.data;
}

/** Operations shared by the admin HTTP API and the in-process `admin` object. */
export function coreAdmin(state: ServerState) {
  const clockMoved = (frozen = state.events.settings().clock.frozen) =>
    state.events.updateSettings({ clock: { now: state.clock.now(), frozen } });
  return {
    reset: () => state.reset(),
    advanceClock: (ms: number) => {
      state.clock.advance(ms);
      clockMoved();
    },
    setNow: (epochMs: number) => {
      state.clock.set(epochMs);
      clockMoved();
    },
    /** Stops or resumes the passing of wall time on the server clock. */
    freezeClock: (frozen = true) => {
      state.clock.freeze(frozen);
      clockMoved(frozen);
    },
    now: () => state.clock.now(),
    setFaults: (config: FaultConfig | undefined) => {
      state.faults.configure(config);
      const current = state.faults.current;
      state.events.updateSettings({
        faults: current ? { rate: current.rate, kinds: [...current.kinds], seed: current.seed } : null,
      });
    },
    /** Switches the rate limiter of API requests on, or off (`undefined` or `perSecond` 0). */
    setRateLimit: (config: RateLimitConfig | undefined) => state.rateLimit.configure(config),
    stats: () => ({
      ...state.stats,
      faultsInjected: { ...state.faults.injected },
      rateLimited: state.rateLimit.limited,
      now: state.nowIso(),
    }),
    requests: () => state.requestLog.toArray(),
    /** What the console was told so far (bounded history), oldest first. */
    consoleEvents: () => state.events.since(undefined).events,
  };
}

/** `/__admin/reset`, `/clock`, `/faults`, `/rate-limit`, `/stats`, `/requests`. */
export function coreAdminModule(state: ServerState): ServerModule {
  const admin = coreAdmin(state);
  return {
    routes: [
      {
        method: 'POST',
        pattern: '/__admin/reset',
        doc: {
          summary: 'Restores the fixture: keys, data, counters, logs, faults, the rate limit, the clock.',
          returns: '204',
        },
        handle: ({ res }) => {
          admin.reset();
          sendEmpty(res, 204);
        },
      },
      {
        method: 'POST',
        pattern: '/__admin/clock',
        doc: {
          summary: 'Moves the server clock forward, sets it (epoch ms or ISO 8601), or freezes it.',
          body: ClockBody,
          example: { advanceMs: 3_600_000 },
          returns: '200 {now}',
        },
        handle: async ({ req, res }) => {
          const body = await adminBody(req, ClockBody);
          if (body.frozen !== undefined) admin.freezeClock(body.frozen);
          if ('advanceMs' in body) admin.advanceClock(body.advanceMs);
          else if ('now' in body)
            admin.setNow(typeof body.now === 'number' ? body.now : Date.parse(body.now));
          sendJson(res, 200, { now: state.nowIso() });
        },
      },
      {
        method: 'POST',
        pattern: '/__admin/faults',
        doc: {
          summary:
            'Injects seeded faults into a share (rate 0..1) of the API requests (never the admin ones); rate 0 stops them.',
          body: FaultsBody,
          example: { rate: 0.2, kinds: ['status503', 'reset'], seed: 7 },
          returns: '200 {faults}',
        },
        handle: async ({ req, res }) => {
          const body = await adminBody(req, FaultsBody);
          admin.setFaults(body);
          sendJson(res, 200, { faults: state.faults.current ?? null });
        },
      },
      {
        method: 'POST',
        pattern: '/__admin/rate-limit',
        doc: {
          summary:
            'Limits API requests (never the admin ones) to perSecond, a token bucket of burst (default perSecond rounded up); past it 429, with Retry-After unless retryAfter is false; perSecond 0 switches it off.',
          body: RateLimitBody,
          example: { perSecond: 2, retryAfter: false },
          returns: '200 {rateLimit}',
        },
        handle: async ({ req, res }) => {
          const body = await adminBody(req, RateLimitBody);
          admin.setRateLimit(body);
          sendJson(res, 200, { rateLimit: state.rateLimit.current ?? null });
        },
      },
      {
        method: 'GET',
        pattern: '/__admin/stats',
        doc: {
          summary:
            'Counters: requests by route, validations processed, idempotent replays, webhooks sent and failed, webhook attempts, verification fetches, faults injected, requests rate-limited.',
          returns:
            '200 {requestsByRoute, validationsProcessed, idempotentReplays, webhooksSent, webhooksFailed, webhookAttempts, verificationFetches, faultsInjected, rateLimited, now}',
        },
        handle: ({ res }) => sendJson(res, 200, admin.stats()),
      },
      {
        method: 'GET',
        pattern: '/__admin/requests',
        doc: {
          summary: 'The log of API requests (not admin ones), oldest first, keys masked; the last 10,000.',
          returns: '200 {requests: [{at, method, path, status, requestId, key}]}',
        },
        handle: ({ res }) => sendJson(res, 200, { requests: admin.requests() }),
      },
    ],
  };
}
