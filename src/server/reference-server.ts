import { coreAdmin, coreAdminModule } from './admin-core.js';
import { listen, type ReferenceServerOptions } from './app.js';
import { type BotCheckAdmin, botCheckModule } from './botcheck/module.js';
import type { ServerModule } from './module.js';
import {
  type AddAuditEvents,
  type AuditEventsAdded,
  auditModule,
  type GenerateAuditEvents,
} from './routes/audit.js';
import { taxModule } from './routes/tax.js';
import { ServerState } from './state.js';
import type { ProviderMode } from './tax/engine.js';
import { WebhookSender } from './webhooks.js';

/** Options of `admin.seedDemoData`. */
export interface DemoDataOptions {
  /** Audit events to generate for the demo project. Default 200. */
  auditEvents?: number;
}

/** In-process admin operations (the same as the `/__admin` HTTP API). */
export type ReferenceAdmin = ReturnType<typeof coreAdmin> & {
  /** Creates a bot-check verification of the demo captcha (finished by default): id, token, access token. */
  createVerification: BotCheckAdmin['createVerification'];
  /** Finishes a verification created with `finished: false`; its validity starts now. */
  finishVerification: BotCheckAdmin['finishVerification'];
  /** Makes a registry answer synchronously, asynchronously (202, completes on the next tick) or not at all. */
  setProviderMode(provider: string, mode: ProviderMode): void;
  /** Registers a URL that receives every webhook event. */
  addWebhookEndpoint(url: string): void;
  /** The registered webhook endpoints. */
  webhookEndpoints(): string[];
  /** Resolves when every webhook delivery started so far has ended. */
  drainWebhooks(): Promise<void>;
  /** Loads the demo data used by `svc serve` and `--sandbox`. */
  seedDemoData(options?: DemoDataOptions): void;
  /** Adds audit events: `{count, scope, from?, to?}` generated deterministically, or `{events}` as given. */
  addAuditEvents(input: GenerateAuditEvents | AddAuditEvents): AuditEventsAdded;
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
  const webhooks = new WebhookSender(state);
  const tax = taxModule(state, webhooks);
  const audit = auditModule(state);
  const botCheck = botCheckModule(state);
  const modules: ServerModule[] = [coreAdminModule(state), tax, audit, botCheck];
  const listening = await listen(state, modules, options);
  return {
    url: listening.url,
    port: listening.port,
    host: listening.host,
    admin: {
      ...coreAdmin(state),
      setProviderMode: (provider, mode) => tax.engine.providerModes.set(provider, mode),
      addWebhookEndpoint: (url) => {
        if (!webhooks.endpoints.includes(url)) webhooks.endpoints.push(url);
      },
      drainWebhooks: () => webhooks.drain(),
      webhookEndpoints: () => [...webhooks.endpoints],
      seedDemoData: (demo) => audit.seedDemoData(demo),
      addAuditEvents: (input) => audit.addAuditEvents(input),
      ...botCheck.admin,
    },
    close: listening.close,
  };
}

export type { ReferenceServerOptions };
