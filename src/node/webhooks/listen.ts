import type { WebhookListener, WebhookListenerOptions } from './listener-types.js';

export type { WebhookDelivery, WebhookListener, WebhookListenerOptions } from './listener-types.js';

/**
 * Receives webhook events on a local port. Only POSTs to the random path token are accepted,
 * under a `Host` of the bound name or a loopback name with the port (else 403), and bodies are
 * bounded. The service does not specify webhook signing, so an event proves nothing by
 * itself: confirm it by fetching its result from the API (`client.tax.getResult`).
 */
export async function listenForWebhooks(options: WebhookListenerOptions): Promise<WebhookListener> {
  // Loaded on use: the server code (node:http, host guard, connection bounds) is not on the import path.
  const { startWebhookListener } = await import('./server.js');
  return startWebhookListener(options);
}
