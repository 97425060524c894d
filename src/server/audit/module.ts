import type { ServerModule } from '../module.js';
import type { ServerState } from '../state.js';
import { type AuditAdmin, auditAdmin, auditAdminRoutes } from './admin.js';
import { auditRoutes } from './routes.js';
import { AuditStore } from './store.js';
import type { AuditStreamOptions } from './stream-delivery.js';
import { AuditStreams, type AuditStreamsAdmin, auditStreamRoutes } from './streams.js';

/** The audit log API: its store, `GET /platform/v1/events`, its admin controls and its push streams. */
export function auditModule(
  state: ServerState,
  streamOptions?: AuditStreamOptions,
): ServerModule & { admin: AuditAdmin & AuditStreamsAdmin } {
  const store = new AuditStore();
  state.onReset(() => store.reset());
  const streams = new AuditStreams(state, streamOptions);
  store.onAdd((segment) => streams.record(segment));
  const admin = auditAdmin(state, store);
  const streamsAdmin: AuditStreamsAdmin = {
    createAuditStream: (input) => streams.createAuditStream(input),
    auditStreams: () => streams.auditStreams(),
    deleteAuditStream: (streamId) => streams.deleteAuditStream(streamId),
    flushAuditStreams: (streamId) => streams.flushAuditStreams(streamId),
  };
  return {
    admin: { ...admin, ...streamsAdmin },
    routes: [...auditRoutes(state, store), ...auditAdminRoutes(admin), ...auditStreamRoutes(streams)],
    close: () => streams.close(),
  };
}
