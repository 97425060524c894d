import { z } from 'zod';
import {
  AuditTimestamp,
  FROM_AFTER_TO,
  fromAfterTo,
  isOrderedRange,
  resolveRange,
} from '../../audit/query.js';
import { AuditEvent } from '../../audit/schemas.js';
import { toIssues } from '../../core/zod-issues.js';
import { signCursor } from '../audit/cursor.js';
import { parseEventsQuery } from '../audit/query.js';
import { AuditStore } from '../audit/store.js';
import { type AuditOwner, ownerKey } from '../audit/templates.js';
import { DEMO } from '../fixtures.js';
import { readJson, sendJson } from '../http-io.js';
import type { ServerModule } from '../module.js';
import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const ScopeFields = {
  /** Whose events: the project (default `demo`) or the agency (default `demo-agency`). */
  scope: z.enum(['project', 'agency']).default('project'),
  ownerId: z.string().min(1).max(200).optional(),
};

const GenerateBody = z
  .strictObject({
    count: z.number().int().min(1).max(5_000_000),
    ...ScopeFields,
    from: AuditTimestamp.optional(),
    to: AuditTimestamp.optional(),
  })
  .refine(isOrderedRange, fromAfterTo());

const StoredEvent = AuditEvent.refine((e) => AuditTimestamp.safeParse(e.occurredAt).success, {
  path: ['occurredAt'],
  message: 'must be an ISO 8601 timestamp',
});
const EventsBody = z.strictObject({ events: z.array(StoredEvent).min(1).max(100_000), ...ScopeFields });

/** `POST /__admin/audit-events`: generate `count` events deterministically over `from`..`to` (default the last 24 hours). */
export type GenerateAuditEvents = z.input<typeof GenerateBody>;
/** `POST /__admin/audit-events`: store these events as given. */
export type AddAuditEvents = z.input<typeof EventsBody>;

/** What an admin add reports. */
export interface AuditEventsAdded {
  added: number;
  scope: 'project' | 'agency';
  ownerId: string;
  /** Newest and oldest id of the added events. */
  newestId: string;
  oldestId: string;
  from: string;
  to: string;
}

/** Parses an admin body; the generate and explicit forms are told apart by `events`. */
function parseAdd(raw: unknown): {
  owner: AuditOwner;
  count?: number;
  from?: string;
  to?: string;
  events?: Array<Record<string, unknown>>;
} {
  const explicit = typeof raw === 'object' && raw !== null && 'events' in raw;
  const parsed = (explicit ? EventsBody : GenerateBody).safeParse(raw ?? {});
  if (!parsed.success) {
    const issues = toIssues(parsed.error);
    const first = issues[0];
    throw new HttpProblem(
      422,
      `Invalid admin request${first ? `: ${first.path} ${first.message}` : ''}`,
      issues,
    );
  }
  const { scope, ownerId } = parsed.data;
  const owner: AuditOwner = {
    kind: scope,
    id: ownerId ?? (scope === 'agency' ? DEMO.agencyId : DEMO.projectId),
  };
  // Explicit events are stored as sent (the parsed copy would reorder keys).
  if (explicit) return { owner, events: (raw as { events: Array<Record<string, unknown>> }).events };
  const data = parsed.data as z.output<typeof GenerateBody>;
  return { owner, count: data.count, from: data.from, to: data.to };
}

/** The audit log API, its store and its admin controls. */
export function auditModule(state: ServerState): ServerModule & {
  store: AuditStore;
  addAuditEvents: (input: GenerateAuditEvents | AddAuditEvents) => AuditEventsAdded;
  seedDemoData: (options?: { auditEvents?: number }) => void;
} {
  const store = new AuditStore();
  state.onReset(() => store.reset());

  /** Adds generated or explicit events; throws `HttpProblem` 422 for an invalid request. */
  const addAuditEvents = (input: unknown): AuditEventsAdded => {
    const req = parseAdd(input);
    const segment = (() => {
      if (req.events) {
        try {
          return store.addEvents(req.owner, req.events);
        } catch (error) {
          throw new HttpProblem(409, (error as Error).message);
        }
      }
      const range = resolveRange(req.from, req.to, state.clock.now());
      if (!isOrderedRange(range)) {
        throw new HttpProblem(422, 'from lies after to', [{ path: 'from', message: FROM_AFTER_TO }]);
      }
      return store.generate(req.owner, req.count as number, Date.parse(range.from), Date.parse(range.to));
    })();
    const last = segment.size - 1;
    return {
      added: segment.size,
      scope: req.owner.kind,
      ownerId: req.owner.id,
      newestId: segment.idAt(0),
      oldestId: segment.idAt(last),
      from: new Date(segment.occAt(last)).toISOString(),
      to: new Date(segment.occAt(0)).toISOString(),
    };
  };

  /**
   * Demo data of `svc serve` and `--sandbox`: project events plus a few agency events over the last
   * 23 hours, so a default query (the last 24 hours) made within the next hour sees all of them.
   */
  const seedDemoData = (options: { auditEvents?: number } = {}): void => {
    const count = options.auditEvents ?? 200;
    const now = state.clock.now();
    const range = { from: new Date(now - 23 * HOUR_MS).toISOString(), to: new Date(now).toISOString() };
    if (count > 0) addAuditEvents({ count, scope: 'project', ...range });
    addAuditEvents({ count: 12, scope: 'agency', ...range });
  };

  return {
    store,
    addAuditEvents,
    seedDemoData,
    routes: [
      {
        method: 'GET',
        pattern: '/platform/v1/events',
        auth: { api: 'audit', feature: 'auditLog' },
        handle: ({ res, query, principal }) => {
          const owner = ownerKey({
            kind: principal.kind === 'agency' ? 'agency' : 'project',
            id: principal.ownerId,
          });
          const now = state.clock.now();
          const q = parseEventsQuery(query, state.secret, owner, now);
          const snapshot = q.cursor ? q.cursor.snapshot : store.snapshot;
          const result = store.page({
            owner,
            fromMs: q.fromMs,
            toMs: q.toMs,
            cutoffMs: now - principal.plan.auditRetentionDays * DAY_MS,
            snapshot,
            after: q.cursor ? { occ: q.cursor.lastOcc, id: q.cursor.lastId } : undefined,
            skip: q.cursor ? 0 : q.page * q.pageSize,
            limit: q.pageSize,
          });
          const nextCursor = result.more
            ? signCursor(state.secret, {
                owner,
                fromMs: q.fromMs,
                toMs: q.toMs,
                snapshot,
                lastOcc: result.more.occ,
                lastId: result.more.id,
                page: q.page + 1,
              })
            : null;
          sendJson(res, 200, {
            from: new Date(q.fromMs).toISOString(),
            to: new Date(q.toMs).toISOString(),
            content: result.events,
            page: q.page,
            pageSize: q.pageSize,
            totalElements: result.total,
            nextCursor,
          });
        },
      },
      {
        method: 'POST',
        pattern: '/__admin/audit-events',
        handle: async ({ req, res }) => sendJson(res, 201, addAuditEvents(await readJson(req))),
      },
    ],
  };
}
