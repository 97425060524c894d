import { coreAdmin, coreAdminModule } from './admin-core.js';
import { listen, type ReferenceServerOptions } from './app.js';
import type { ServerModule } from './module.js';
import { ServerState } from './state.js';

/** Options of `admin.seedDemoData`. */
export interface DemoDataOptions {
  /** Audit events to generate for the demo project. Default 200. */
  auditEvents?: number;
}

/** In-process admin operations (the same as the `/__admin` HTTP API). */
export type ReferenceAdmin = ReturnType<typeof coreAdmin> & {
  /** Loads the demo data used by `svc serve` and `--sandbox`. */
  seedDemoData(options?: DemoDataOptions): void;
};

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
  const state = new ServerState(options.clock);
  const modules: ServerModule[] = [coreAdminModule(state)];
  const listening = await listen(state, modules, options);
  return {
    url: listening.url,
    port: listening.port,
    host: listening.host,
    admin: {
      ...coreAdmin(state),
      seedDemoData: () => {},
    },
    close: listening.close,
  };
}

export type { ReferenceServerOptions };
