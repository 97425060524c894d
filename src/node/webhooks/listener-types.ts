import type { TaxWebhookEvent } from '../../tax/webhooks/parse-event.js';

/** Options of `listenForWebhooks` (`client.tax` webhook helpers and `svc webhooks listen`). */
export interface WebhookListenerOptions {
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** Secret path segment; requests to any other path get 404. Default: 32 random hex characters. */
  pathToken?: string;
  /** Largest accepted body; larger requests get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Most connections open at once, so the listener's descriptors stay bounded whatever a sender
   * does. When a new connection comes and the listener is full, an idle one (kept alive between
   * requests, or one that never sent a complete request) is closed to make room, oldest first, so
   * a local process holding idle connections cannot block deliveries; only when every connection
   * is busy with a request is the new one closed (the sender retries it). Default 64.
   */
  maxConnections?: number;
  /**
   * Called for each accepted event, with the body exactly as received (as text, and as bytes with
   * its content type in `delivery`). A `WebhookRejection` it throws is answered with its
   * status (so the sender retries); any other error with 500.
   */
  onEvent(event: TaxWebhookEvent, rawBody: string, delivery: WebhookDelivery): void | Promise<void>;
}

/** One received delivery, as it arrived. */
export interface WebhookDelivery {
  /** The body's bytes, unchanged. */
  bytes: Uint8Array;
  /** The request's `content-type` header, if any. */
  contentType: string | undefined;
}

/** A running webhook listener. */
export interface WebhookListener {
  /** The full URL to register as the webhook endpoint, including the path token. */
  url: string;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}
