import type { Agent } from 'undici';
import { SvcError } from '../core/errors/error-classes.js';
import { loadUndiciParts, type UndiciParts } from '../core/transport/undici-load.js';
import type { WebhookDelivery } from './webhook-listener-options.js';

/** A webhook event could not be handed to the forward target (unreachable, timed out, or not 2xx). Code `forward`. */
export class WebhookForwardError extends SvcError {
  override name = 'WebhookForwardError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'forward', options);
  }
}

/** Options of {@link createWebhookForwarder}. */
export interface WebhookForwarderOptions {
  /** Forwards in flight at most (keep-alive connections to the target); more wait their turn. Default 8. */
  maxConcurrent?: number;
  /** Longest wait for the target's answer (headers, then body), in ms. Default 10000. */
  timeoutMs?: number;
}

/** Hands received webhook deliveries on to another URL (e.g. the app under development). */
export interface WebhookForwarder {
  /** The target, without credentials or query (for messages). */
  readonly target: string;
  /**
   * POSTs the delivery's bytes unchanged, with its content type, and resolves with the target's
   * 2xx status; anything else rejects with {@link WebhookForwardError}.
   */
  forward(delivery: WebhookDelivery): Promise<number>;
  /** Closes the keep-alive connections. */
  close(): Promise<void>;
}

/**
 * A forwarder to `target` (http or https), as `stripe listen --forward-to` does: each event's
 * body byte for byte and its content type, over at most `maxConcurrent` keep-alive connections.
 * A `TypeError` for a URL that is not http(s).
 */
export function createWebhookForwarder(
  target: string | URL,
  options: WebhookForwarderOptions = {},
): WebhookForwarder {
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`forward target must be an http(s) URL, got ${url.protocol}`);
  const shown = `${url.origin}${url.pathname}`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let agent: Promise<{ agent: Agent; request: UndiciParts['request'] }> | undefined;
  const load = () => {
    agent ??= loadUndiciParts().then((undici) => ({
      agent: new undici.Agent({
        connections: Math.max(options.maxConcurrent ?? 8, 1),
        keepAliveTimeout: 10_000,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      }),
      request: undici.request,
    }));
    return agent;
  };
  return {
    target: shown,
    async forward(delivery) {
      const { agent: dispatcher, request } = await load();
      let status: number;
      try {
        const res = await request.call(dispatcher, {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { 'content-type': delivery.contentType ?? 'application/json' },
          body: delivery.bytes,
        });
        status = res.statusCode;
        await res.body.dump();
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw new WebhookForwardError(`cannot reach ${shown}${code ? ` (${code})` : ''}`, { cause: error });
      }
      if (status < 200 || status >= 300) throw new WebhookForwardError(`${shown} answered HTTP ${status}`);
      return status;
    },
    async close() {
      if (agent) await (await agent).agent.close();
    },
  };
}
