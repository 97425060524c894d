import { z } from 'zod';
import { PROVIDERS } from '../../tax/enums.js';
import { adminBody } from '../admin-core.js';
import { sendJson } from '../http-io.js';
import { HttpProblem } from '../problem.js';
import type { Route } from '../router.js';
import type { ProviderMode, TaxStore } from './store.js';
import type { WebhookSender } from './webhook-sender.js';

/** Body of `POST /__admin/providers/{provider}`. */
export const ProviderModeBody = z.strictObject({ mode: z.enum(['sync', 'async', 'unavailable']) });
/** Body of `POST` and `DELETE /__admin/webhook-endpoints`. */
export const WebhookEndpointBody = z.strictObject({ url: z.url({ protocol: /^https?$/ }) });

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
  /** Resolves when every webhook delivery started so far has ended. */
  drainWebhooks(): Promise<void>;
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
  };
}

/**
 * `POST /__admin/providers/{provider}`; `POST`, `GET` and `DELETE /__admin/webhook-endpoints`
 * (DELETE names the URL as `?url=` or in a `{ "url" }` body; 404 when it is not registered).
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
  ];
}
