import { z } from 'zod';
import { toIssues } from '../core/zod-issues.js';
import { API_FAULT_KINDS, FAULT_KINDS, type FaultConfig } from './faults.js';
import { readJson, sendEmpty, sendJson } from './http-io.js';
import type { ServerModule } from './module.js';
import { HttpProblem } from './problem.js';
import type { ServerState } from './state.js';

const ClockBody = z.union([
  z.strictObject({ advanceMs: z.number().int().nonnegative(), frozen: z.boolean().optional() }),
  z.strictObject({
    now: z.union([z.number().int(), z.iso.datetime({ offset: true })]),
    frozen: z.boolean().optional(),
  }),
  z.strictObject({ frozen: z.boolean() }),
]);

const FaultsBody = z.strictObject({
  rate: z.number().min(0).max(1),
  kinds: z.array(z.enum(FAULT_KINDS)).default([...API_FAULT_KINDS]),
  seed: z.number().int().default(1),
  slowMs: z.number().int().positive().optional(),
});

/** Parses an admin body with a schema; 422 with every issue otherwise. */
export async function adminBody<T>(req: Parameters<typeof readJson>[0], schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse((await readJson(req)) ?? {});
  if (!parsed.success) {
    throw new HttpProblem(422, 'Invalid admin request', toIssues(parsed.error));
  }
  return parsed.data;
}

/** Operations shared by the admin HTTP API and the in-process `admin` object. */
export function coreAdmin(state: ServerState) {
  return {
    reset: () => state.reset(),
    advanceClock: (ms: number) => state.clock.advance(ms),
    setNow: (epochMs: number) => state.clock.set(epochMs),
    /** Stops or resumes the passing of wall time on the server clock. */
    freezeClock: (frozen = true) => state.clock.freeze(frozen),
    now: () => state.clock.now(),
    setFaults: (config: FaultConfig | undefined) => state.faults.configure(config),
    stats: () => ({ ...state.stats, faultsInjected: { ...state.faults.injected }, now: state.nowIso() }),
    requests: () => [...state.requestLog],
  };
}

/** `/__admin/reset`, `/clock`, `/faults`, `/stats`, `/requests`. */
export function coreAdminModule(state: ServerState): ServerModule {
  const admin = coreAdmin(state);
  return {
    routes: [
      {
        method: 'POST',
        pattern: '/__admin/reset',
        handle: ({ res }) => {
          admin.reset();
          sendEmpty(res, 204);
        },
      },
      {
        method: 'POST',
        pattern: '/__admin/clock',
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
        handle: async ({ req, res }) => {
          const body = await adminBody(req, FaultsBody);
          admin.setFaults(body);
          sendJson(res, 200, { faults: state.faults.current ?? null });
        },
      },
      { method: 'GET', pattern: '/__admin/stats', handle: ({ res }) => sendJson(res, 200, admin.stats()) },
      {
        method: 'GET',
        pattern: '/__admin/requests',
        handle: ({ res }) => sendJson(res, 200, { requests: admin.requests() }),
      },
    ],
  };
}
