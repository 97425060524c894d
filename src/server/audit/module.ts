import type { ServerModule } from '../module.js';
import type { ServerState } from '../state.js';
import { type AuditAdmin, auditAdmin, auditAdminRoutes } from './admin.js';
import { auditRoutes } from './routes.js';
import { AuditStore } from './store.js';

/** The audit log API: its store, `GET /platform/v1/events` and its admin controls. */
export function auditModule(state: ServerState): ServerModule & { admin: AuditAdmin } {
  const store = new AuditStore();
  state.onReset(() => store.reset());
  const admin = auditAdmin(state, store);
  return { admin, routes: [...auditRoutes(state, store), ...auditAdminRoutes(admin)] };
}
