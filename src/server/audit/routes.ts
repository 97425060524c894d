import { sendJson } from '../http-io.js';
import type { Route } from '../router.js';
import type { ServerState } from '../state.js';
import { signCursor } from './cursor.js';
import { parseEventsQuery } from './query.js';
import type { AuditStore } from './store.js';
import { ownerKey } from './templates.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `GET /platform/v1/events`: one page, newest first, from a snapshot a cursor keeps. */
export function auditRoutes(state: ServerState, store: AuditStore): Route[] {
  return [
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
  ];
}
