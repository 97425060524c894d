import { useEnglishMessages } from '../core/schema.js';
import { coreAdmin, coreAdminModule } from './admin-core.js';
import { adminIndexModule } from './admin-index.js';
import { listen, type ReferenceServerOptions } from './app.js';
import type { AuditAdmin } from './audit/admin.js';
import { auditModule } from './audit/module.js';
import type { AuditStreamsAdmin } from './audit/streams.js';
import { type BotCheckAdmin, botCheckModule } from './botcheck/module.js';
import { consoleModule } from './console/routes.js';
import type { ServerModule } from './module.js';
import { ServerState } from './state.js';
import type { TaxAdmin } from './tax/admin.js';
import { taxModule } from './tax/module.js';
import { widgetModule } from './widget/routes.js';

/**
 * In-process admin operations (the same as the `/__admin` HTTP API): the shared ones (reset,
 * clock, faults, rate limit, stats, requests) and each API's own (audit streams included).
 */
export type ReferenceAdmin = ReturnType<typeof coreAdmin> &
  TaxAdmin &
  AuditAdmin &
  AuditStreamsAdmin &
  BotCheckAdmin;

/** A running reference server with its in-process admin handle. */
export interface ReferenceServer {
  /** Base URL to give a client, e.g. `http://127.0.0.1:40123`. */
  url: string;
  port: number;
  host: string;
  /** The same operations as the `/__admin` HTTP API, callable in-process. */
  admin: ReferenceAdmin;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Starts the in-memory reference server of the four APIs on `127.0.0.1:0` (unless told otherwise).
 *
 * @example
 * const server = await createReferenceServer();
 * const client = new SvcClient({ baseUrl: server.url, apiKey: 'ak_demo_project' });
 * await server.close();
 */
export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  // Problem documents list zod's messages: English, as with classic zod (the schemas are zod/mini).
  useEnglishMessages();
  const state = new ServerState(options.clock, options.now);
  const tax = taxModule(state, options.webhooks);
  const audit = auditModule(state, options.auditStreams);
  const botCheck = botCheckModule(state);
  const modules: ServerModule[] = [
    coreAdminModule(state),
    tax,
    audit,
    botCheck,
    consoleModule(state),
    widgetModule(botCheck.admin),
  ];
  modules.unshift(adminIndexModule(() => modules.flatMap((module) => module.routes)));
  const listening = await listen(state, modules, options);
  return {
    url: listening.url,
    port: listening.port,
    host: listening.host,
    admin: { ...coreAdmin(state), ...tax.admin, ...audit.admin, ...botCheck.admin },
    close: listening.close,
  };
}

export type { ReferenceServerOptions };
