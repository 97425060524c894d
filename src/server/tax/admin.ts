import * as z from 'zod/mini';
import { toIssues } from '../../core/zod-issues.js';
import { PROVIDERS } from '../../tax/enums.js';
import { adminBody } from '../admin-core.js';
import { sendJson } from '../http-io.js';
import { HttpProblem } from '../problem.js';
import type { Route } from '../router.js';
import type { ProviderMode, TaxStore } from './store.js';
import type { DeliveryState, WebhookDeliveryRecord } from './webhook-deliveries.js';
import type { WebhookRetrySettings, WebhookSender } from './webhook-sender.js';

/** Body of `POST /__admin/providers/{provider}`. */
export const ProviderModeBody = z.strictObject({ mode: z.enum(['sync', 'async', 'unavailable']) });
/** Body of `POST` and `DELETE /__admin/webhook-endpoints`: an http(s) URL of at most 2048 characters. */
export const WebhookEndpointBody = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).check(z.maxLength(2048)),
});
const DELIVERY_STATES = ['queued', 'sending', 'retrying', 'delivered', 'failed', 'lost'] as const;
/** Query of `GET /__admin/webhook-deliveries`. */
export const DeliveriesQuery = z.strictObject({
  limit: z._default(z.coerce.number().check(z.int()).check(z.gte(1)).check(z.lte(1000)), 100),
  state: z.optional(z.enum(DELIVERY_STATES)),
});
/** Body of `POST /__admin/webhook-retries`. */
export const WebhookRetriesBody = z.strictObject({
  retryDelaysMs: z.optional(
    z.array(z.number().check(z.int()).check(z.gte(0)).check(z.lte(86_400_000))).check(z.maxLength(20)),
  ),
  timeoutMs: z.optional(z.number().check(z.int()).check(z.gte(1)).check(z.lte(600_000))),
});

/** In-process admin operations of the tax-validation API (same as its `/__admin` routes). */
export interface TaxAdmin {
  /** Makes a registry answer synchronously, asynchronously (202, completes on the next tick) or not at all. */
  setProviderMode(provider: string, mode: ProviderMode): void;
  /** Registers a URL that receives every webhook event. */
  addWebhookEndpoint(url: string): void;
  /** Unregisters a webhook endpoint; false when it was not registered. */
  removeWebhookEndpoint(url: string): boolean;
  /** The registered webhook endpoints. */
  webhookEndpoints(): string[];
  /** Resolves when every webhook delivery started so far has ended (retries included). */
  drainWebhooks(): Promise<void>;
  /** The newest webhook deliveries first (at most `limit`, default 100), optionally in one state. */
  webhookDeliveries(limit?: number, state?: DeliveryState): WebhookDeliveryRecord[];
  /** Sends an ended delivery again (`HttpProblem` 404 unknown, 409 still under way). */
  redeliverWebhook(id: string): WebhookDeliveryRecord;
  /** Changes the webhook retry schedule and attempt timeout; returns the settings in force. */
  configureWebhookRetries(settings: Partial<WebhookRetrySettings>): WebhookRetrySettings;
}

/** The admin operations over the store and the webhook sender. */
export function taxAdmin(store: TaxStore, webhooks: WebhookSender): TaxAdmin {
  return {
    setProviderMode: (provider, mode) => {
      store.providerModes.set(provider, mode);
      store.state.events.updateSettings({ providers: Object.fromEntries(store.providerModes) });
    },
    addWebhookEndpoint: (url) => {
      if (!webhooks.endpoints.includes(url)) webhooks.endpoints.push(url);
    },
    removeWebhookEndpoint: (url) => {
      const index = webhooks.endpoints.indexOf(url);
      if (index === -1) return false;
      webhooks.endpoints.splice(index, 1);
      return true;
    },
    webhookEndpoints: () => [...webhooks.endpoints],
    drainWebhooks: () => webhooks.drain(),
    webhookDeliveries: (limit, state) => webhooks.deliveries(limit, state),
    redeliverWebhook: (id) => webhooks.redeliver(id),
    configureWebhookRetries: (settings) => webhooks.configureRetries(settings),
  };
}

/**
 * `POST /__admin/providers/{provider}`; `POST`, `GET` and `DELETE /__admin/webhook-endpoints`
 * (DELETE names the URL as `?url=` or in a `{ "url" }` body; 404 when it is not registered);
 * `GET /__admin/webhook-deliveries` (`?limit=1..1000`, default 100, `&state=`), newest first;
 * `POST /__admin/webhook-deliveries/{id}/redeliver`; `GET` and `POST /__admin/webhook-retries`.
 */
export function taxAdminRoutes(admin: TaxAdmin): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/__admin/providers/:provider',
      doc: {
        summary: `Makes a registry answer synchronously, asynchronously (202 PENDING, completes on the next tick) or not at all (SOURCE_UNAVAILABLE). Providers: ${PROVIDERS.join(', ')}.`,
        body: ProviderModeBody,
        example: { mode: 'unavailable' },
        examplePath: '/__admin/providers/VIES',
        returns: '200 {provider, mode}',
      },
      handle: async ({ req, res, params }) => {
        const provider = params.provider as string;
        if (!(PROVIDERS as readonly string[]).includes(provider)) {
          throw new HttpProblem(404, `Unknown provider ${provider}; known: ${PROVIDERS.join(', ')}`);
        }
        const { mode } = await adminBody(req, ProviderModeBody);
        admin.setProviderMode(provider, mode);
        sendJson(res, 200, { provider, mode });
      },
    },
    {
      method: 'POST',
      pattern: '/__admin/webhook-endpoints',
      doc: {
        summary:
          'Registers a URL that receives every webhook event (what `svc webhooks listen --register` does).',
        body: WebhookEndpointBody,
        example: { url: 'http://127.0.0.1:8787/hook' },
        returns: '201 {url, endpoints}',
      },
      handle: async ({ req, res }) => {
        const { url } = await adminBody(req, WebhookEndpointBody);
        admin.addWebhookEndpoint(url);
        sendJson(res, 201, { url, endpoints: admin.webhookEndpoints() });
      },
    },
    {
      method: 'GET',
      pattern: '/__admin/webhook-endpoints',
      doc: { summary: 'The registered webhook endpoints.', returns: '200 {endpoints}' },
      handle: ({ res }) => sendJson(res, 200, { endpoints: admin.webhookEndpoints() }),
    },
    {
      method: 'DELETE',
      pattern: '/__admin/webhook-endpoints',
      doc: {
        summary:
          'Unregisters a webhook endpoint, named by ?url= or in the body; 404 when it is not registered.',
        query: 'url=<the registered URL> (or the body)',
        body: WebhookEndpointBody,
        example: { url: 'http://127.0.0.1:8787/hook' },
        returns: '200 {url, endpoints}',
      },
      handle: async ({ req, res, query }) => {
        const fromQuery = query.get('url');
        const { url } = fromQuery === null ? await adminBody(req, WebhookEndpointBody) : { url: fromQuery };
        if (!admin.removeWebhookEndpoint(url)) throw new HttpProblem(404, `No webhook endpoint ${url}`);
        sendJson(res, 200, { url, endpoints: admin.webhookEndpoints() });
      },
    },
    {
      method: 'GET',
      pattern: '/__admin/webhook-deliveries',
      doc: {
        summary:
          'The newest webhook deliveries first (at most the last 1000 kept): event, url, state, attempts, last status or error, next attempt.',
        query: 'limit=1..1000 (default 100), state=queued|sending|retrying|delivered|failed|lost',
        returns: '200 {deliveries}',
      },
      handle: ({ res, query }) => {
        const parsed = DeliveriesQuery.safeParse(Object.fromEntries(query));
        if (!parsed.success) throw new HttpProblem(422, 'Invalid query', toIssues(parsed.error));
        sendJson(res, 200, { deliveries: admin.webhookDeliveries(parsed.data.limit, parsed.data.state) });
      },
    },
    {
      method: 'POST',
      pattern: '/__admin/webhook-deliveries/:id/redeliver',
      doc: {
        summary:
          'Sends a delivery that ended (delivered, failed or lost) again, with a fresh retry schedule; 404 for an unknown id, 409 while it is under way.',
        examplePath: '/__admin/webhook-deliveries/DELIVERY_ID/redeliver',
        returns: '202 {id, state, attempts, ...}',
      },
      handle: ({ res, params }) => sendJson(res, 202, admin.redeliverWebhook(params.id as string)),
    },
    {
      method: 'GET',
      pattern: '/__admin/webhook-retries',
      doc: {
        summary:
          'The retry schedule of webhook deliveries (delays between attempts) and the time one attempt may take.',
        returns: '200 {retryDelaysMs, timeoutMs}',
      },
      handle: ({ res }) => sendJson(res, 200, admin.configureWebhookRetries({})),
    },
    {
      method: 'POST',
      pattern: '/__admin/webhook-retries',
      doc: {
        summary:
          'Changes the retry schedule for retries scheduled from now on (tests make it fast); POST /__admin/reset restores the default 1 s, 5 s, 30 s, 2 min, 10 min.',
        body: WebhookRetriesBody,
        example: { retryDelaysMs: [0, 10, 50], timeoutMs: 2000 },
        returns: '200 {retryDelaysMs, timeoutMs}',
      },
      handle: async ({ req, res }) =>
        sendJson(res, 200, admin.configureWebhookRetries(await adminBody(req, WebhookRetriesBody))),
    },
  ];
}
