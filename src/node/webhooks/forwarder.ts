import { SvcError } from '../../core/errors/error-classes.js';
import { type ProxyOption, proxyRoutes, proxySettingsOf } from '../../core/proxy-rules.js';
import { tlsFailureLine } from '../../core/transport/network-errors.js';
import { caOption } from '../../core/transport/pem.js';
import { isProxyAuthAnswer, proxiedFailure, proxyAnswer } from '../../core/transport/proxy-errors.js';
import { trustedCertificates } from '../transport/trust.js';
import { loadUndiciParts, type UndiciParts } from '../transport/undici-load.js';
import { type DispatcherSettings, type Router, settledRouter } from '../transport/undici-routes.js';
import type { WebhookDelivery } from './listener-types.js';

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
  /** The proxy to reach the target through, as `SvcClientOptions.proxy` takes it (curl's NO_PROXY rules). Default: none, direct. */
  proxy?: ProxyOption;
  /** PEM text of CA certificates trusted besides Node's roots, for an https target. Default: none. */
  ca?: string | readonly string[];
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
 * body byte for byte and its content type, over at most `maxConcurrent` keep-alive connections,
 * through `proxy` when it names one for the target. A `TypeError` for a URL that is not http(s);
 * `SvcError` code `config` for a bad proxy URL or `ca`.
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
  const routes = proxyRoutes(proxySettingsOf(options.proxy));
  const extraCa = caOption(options.ca);
  let agent: Promise<{ router: Router; request: UndiciParts['request'] }> | undefined;
  const load = () => {
    agent ??= loadUndiciParts().then((undici) => {
      const settings: DispatcherSettings = {
        connections: Math.max(options.maxConcurrent ?? 8, 1),
        keepAliveTimeout: 10_000,
        connectTimeout: 10_000,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ca: trustedCertificates(extraCa),
      };
      const router = settledRouter(undici, routes, settings);
      return { router, request: undici.request };
    });
    return agent;
  };
  return {
    target: shown,
    async forward(delivery) {
      const { router, request } = await load();
      const { dispatcher, proxy } = router.routeFor(url.origin);
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
        if (proxy && isProxyAuthAnswer(status, res.headers)) throw proxyAnswer(status, url.host, proxy);
      } catch (error) {
        if (error instanceof SvcError) throw new WebhookForwardError(error.message, { cause: error });
        if (proxy)
          throw new WebhookForwardError(proxiedFailure(error, url.host, proxy).message, { cause: error });
        const tls = tlsFailureLine(error, url.host);
        if (tls) throw new WebhookForwardError(tls, { cause: error });
        const code = (error as { code?: string }).code;
        throw new WebhookForwardError(`cannot reach ${shown}${code ? ` (${code})` : ''}`, { cause: error });
      }
      if (status < 200 || status >= 300) throw new WebhookForwardError(`${shown} answered HTTP ${status}`);
      return status;
    },
    async close() {
      if (agent) await Promise.all((await agent).router.dispatchers().map((d) => d.close()));
    },
  };
}
