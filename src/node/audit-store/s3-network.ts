import type { AgentOptions } from 'node:https';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import { SvcError } from '../../core/errors/error-classes.js';
import { proxyFor, proxyRoutes, proxySettingsOf } from '../../core/proxy-rules.js';
import { redact } from '../../core/redact.js';
import { trustedCertificates } from '../transport/trust.js';
import type { S3Route } from './s3-faults.js';
import { DEFAULT_S3_TIMEOUT_MS, type S3StoreSettings } from './s3-settings.js';

// How a bucket archive's requests reach the store: through the proxy the rules of
// core/proxy-rules.ts give for the store's URL (hpagent's agents in the SDK's NodeHttpHandler,
// as the AWS SDK's guide "Configure proxies for Node.js" shows), trusting the user's CA besides
// Node's roots. The AWS SDK reads neither proxy variables nor AWS_CA_BUNDLE itself.

/** Sockets per agent: the NodeHttpHandler's own default. */
const MAX_SOCKETS = 50;

/** The `requestHandler` of the S3 client (NodeHttpHandler constructor options) and the route it takes. */
export interface S3Network {
  route: S3Route;
  /** The SDK's NodeHttpHandler options: the silence bounds, and the agents of a proxy or CA (else the SDK's own). */
  requestHandler: {
    connectionTimeout: number;
    socketTimeout: number;
    httpAgent?: unknown;
    httpsAgent?: unknown;
  };
}

/**
 * The URL the store's requests are sent to: the endpoint (with the bucket in the host name when
 * virtual-hosted), else AWS's `https://BUCKET.s3.REGION.amazonaws.com` (`s3.amazonaws.com`
 * without a region).
 */
export function storeUrl(settings: S3StoreSettings, bucket: string): URL {
  const pathStyle = settings.pathStyle ?? settings.endpoint !== undefined;
  if (settings.endpoint === undefined) {
    const host = settings.region ? `s3.${settings.region}.amazonaws.com` : 's3.amazonaws.com';
    return new URL(`https://${pathStyle ? host : `${bucket}.${host}`}/`);
  }
  let url: URL;
  try {
    url = new URL(settings.endpoint);
  } catch {
    throw new SvcError(`the S3 endpoint is not a URL: ${redact(settings.endpoint)}`, 'config');
  }
  if (!pathStyle) url.hostname = `${bucket}.${url.hostname}`;
  return url;
}

/**
 * The request handler of a bucket archive's S3 client: with a proxy for the store's URL
 * (`settings.proxy`, NO_PROXY applied), hpagent's `HttpProxyAgent` / `HttpsProxyAgent` (keep-alive,
 * the user's CA for the store's TLS and an https proxy's); else, with `settings.ca`, an https
 * agent trusting it besides Node's roots; else the SDK's own agents. Every request may stay
 * silent for at most `settings.timeoutMs` (default 30 s): to connect, for its answer, between
 * bytes of its body.
 */
export function s3Network(settings: S3StoreSettings, bucket: string): S3Network {
  const url = storeUrl(settings, bucket);
  const proxy = proxyFor(url, proxyRoutes(proxySettingsOf(settings.proxy)));
  const timeoutMs = settings.timeoutMs ?? DEFAULT_S3_TIMEOUT_MS;
  const route: S3Route = { host: url.host, proxy, timeoutMs };
  const silence = { connectionTimeout: timeoutMs, socketTimeout: timeoutMs };
  const ca = trustedCertificates(settings.ca);
  const tlsOptions: AgentOptions = ca ? { ca } : {};
  if (proxy) {
    const options = {
      keepAlive: true,
      maxSockets: MAX_SOCKETS,
      proxy,
      ...(ca && { proxyRequestOptions: { ca } }),
    };
    return {
      route,
      requestHandler: {
        ...silence,
        httpAgent: new HttpProxyAgent(options),
        httpsAgent: new HttpsProxyAgent({ ...options, ...tlsOptions }),
      },
    };
  }
  return { route, requestHandler: { ...silence, ...(ca && { httpsAgent: tlsOptions }) } };
}
