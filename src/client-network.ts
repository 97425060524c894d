import { envProxyOfNode } from './client-env.js';
import type { SvcClientOptions } from './client-options.js';
import { SvcError } from './core/errors/error-classes.js';
import { type ProxyOption, proxyFor, proxyRoutes, proxySettingsOf } from './core/proxy-rules.js';
import { currentRuntime, type RuntimeName } from './core/runtime.js';
import { hasNodeTransports } from './core/transport/default.js';
import { caOption } from './core/transport/pem.js';

/** The proxy routes and extra CA certificates the default transport is built with. */
export interface ClientNetwork {
  proxy: ProxyOption | undefined;
  ca: string[] | undefined;
}

/**
 * The network options of a client, checked: `proxy` as given, else the one `env` supplied
 * (`options` holds the environment's defaults), else the process's proxy variables under
 * Node's `NODE_USE_ENV_PROXY=1`; `ca` as PEM certificates.
 *
 * A proxy or CA the caller passed as an option needs the default transport on Node: with a
 * custom `fetch` or `transport`, or on another runtime (whose `fetch` takes no proxy), it is a
 * {@link SvcError} code `config`, never a silent direct connection. Proxies that only the
 * environment names are left to such a transport (Bun's and Deno's `fetch` read these
 * variables themselves).
 *
 * @throws {SvcError} code `config` for a proxy URL that is not http(s), a `ca` without a PEM
 *   certificate, or a proxy or `ca` the transport cannot honour.
 */
export function clientNetwork(
  input: SvcClientOptions,
  options: SvcClientOptions,
  runtime: RuntimeName = currentRuntime().name,
): ClientNetwork {
  const ca = caOption(options.ca);
  const explicit = proxySettingsOf(input.proxy);
  const custom = options.transport !== undefined || options.fetch !== undefined;
  if (explicit || ca) {
    const what =
      explicit && ca ? 'the proxy and ca options' : explicit ? 'the proxy option' : 'the ca option';
    if (custom)
      throw new SvcError(
        `${what} apply to the default transport only: a custom fetch or transport must reach the proxy and trust the CA itself`,
        'config',
      );
    if (!hasNodeTransports(runtime))
      throw new SvcError(
        `${what} need Node's HTTP client; on this runtime (${runtime}) requests use its fetch, which takes no proxy or CA from here (Bun and Deno read HTTPS_PROXY, HTTP_PROXY and NO_PROXY themselves)`,
        'config',
      );
  }
  if (custom || !hasNodeTransports(runtime)) return { proxy: undefined, ca: undefined };
  const chosen = input.proxy !== undefined ? input.proxy : (options.proxy ?? envProxyOfNode());
  // Parsed here too, so a bad proxy URL stops the constructor (the transport parses it again).
  proxyRoutes(proxySettingsOf(chosen));
  return { proxy: chosen, ca };
}

/**
 * The proxy a request to `url` goes through with these client options (`input` as given,
 * `options` with the environment's defaults), or undefined for a direct connection: the rule
 * the default transport follows, for reports such as `diagnose`.
 */
export function proxyOfClient(
  input: SvcClientOptions,
  options: SvcClientOptions,
  url: string | URL,
): URL | undefined {
  const { proxy } = clientNetwork(input, options);
  return proxyFor(url, proxyRoutes(proxySettingsOf(proxy)));
}
