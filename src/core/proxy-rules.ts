import { SvcError } from './errors/error-classes.js';
import { redact } from './redact.js';

/**
 * Which proxy the requests of a client go through, by the scheme of the URL asked for, and
 * which hosts are reached directly. The values are those of the variables `HTTPS_PROXY`,
 * `HTTP_PROXY` and `NO_PROXY` that curl, gh, aws and npm read.
 */
export interface ProxySettings {
  /** Proxy URL for `https://` requests (`HTTPS_PROXY`), e.g. `http://user:pass@proxy:3128`. Default: none, direct. */
  httpsProxy?: string;
  /** Proxy URL for `http://` requests (`HTTP_PROXY`). Default: none, direct. */
  httpProxy?: string;
  /**
   * Hosts reached directly, as curl's `NO_PROXY`: a comma- or space-separated list of host names
   * (each also matches its subdomains; a leading `.` or `*.` means the same), `host:port` (that
   * port only), IP addresses (IPv6 with or without brackets), IPv4 ranges as `10.0.0.0/8`, and
   * `*` for every host. Default: none.
   */
  noProxy?: string;
}

/**
 * The `proxy` option: one proxy URL for every request, {@link ProxySettings} per scheme, or
 * `false` for none (not even one the environment names).
 */
export type ProxyOption = string | ProxySettings | false;

/** One entry of a `NO_PROXY` list, parsed. */
type NoProxyEntry =
  | { kind: 'all' }
  | { kind: 'host'; host: string; port?: string }
  | { kind: 'ipv4-range'; base: number; mask: number; port?: string };

/** The parts of a proxy setting every request looks up, parsed once. */
export interface ProxyRoutes {
  readonly https: URL | undefined;
  readonly http: URL | undefined;
  readonly noProxy: readonly NoProxyEntry[];
}

/** Normalizes the `proxy` option: a string is the proxy of both schemes; `false` and `undefined` are none. */
export function proxySettingsOf(option: ProxyOption | undefined): ProxySettings | undefined {
  if (option === undefined || option === false) return undefined;
  if (typeof option === 'string')
    return option === '' ? undefined : { httpsProxy: option, httpProxy: option };
  return option;
}

/**
 * Parses a proxy URL as curl does: a missing scheme is `http://`; only `http:` and `https:`
 * proxies are supported. The error names the value with its password removed.
 *
 * @throws {SvcError} code `config` for a value that is not a usable proxy URL.
 */
export function parseProxyUrl(value: string, name = 'proxy'): URL {
  const text = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new SvcError(`${name} is not a URL: ${redact(text)}`, 'config');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SvcError(
      `${name} must be an http:// or https:// proxy URL, not ${url.protocol}// (${redact(text)})`,
      'config',
    );
  }
  if (url.hostname === '') throw new SvcError(`${name} names no host: ${redact(text)}`, 'config');
  return url;
}

/** Parses proxy settings once (URLs and the `NO_PROXY` list) for {@link proxyFor}. */
export function proxyRoutes(settings: ProxySettings | undefined): ProxyRoutes | undefined {
  if (!settings) return undefined;
  const https = settings.httpsProxy ? parseProxyUrl(settings.httpsProxy, 'HTTPS proxy') : undefined;
  const http = settings.httpProxy ? parseProxyUrl(settings.httpProxy, 'HTTP proxy') : undefined;
  if (!https && !http) return undefined;
  return { https, http, noProxy: parseNoProxy(settings.noProxy ?? '') };
}

/**
 * The proxy a request to `url` goes through, or `undefined` for a direct connection: the proxy
 * of the URL's scheme unless a `NO_PROXY` entry matches its host (and port).
 */
export function proxyFor(url: URL | string, routes: ProxyRoutes | undefined): URL | undefined {
  if (!routes) return undefined;
  const target = typeof url === 'string' ? new URL(url) : url;
  const proxy =
    target.protocol === 'https:' ? routes.https : target.protocol === 'http:' ? routes.http : undefined;
  if (!proxy) return undefined;
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return bypasses(routes.noProxy, hostOf(target.hostname), port) ? undefined : proxy;
}

/** A URL's host name without IPv6 brackets or a trailing dot, lower case (URL parsing already lowers it). */
function hostOf(hostname: string): string {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
}

function bypasses(entries: readonly NoProxyEntry[], host: string, port: string): boolean {
  for (const entry of entries) {
    if (entry.kind === 'all') return true;
    if (entry.port !== undefined && entry.port !== port) continue;
    if (entry.kind === 'host') {
      if (host === entry.host || host.endsWith(`.${entry.host}`)) return true;
    } else {
      const ip = ipv4Number(host);
      if (ip !== undefined && (ip & entry.mask) >>> 0 === entry.base) return true;
    }
  }
  return false;
}

/** Parses a `NO_PROXY` list; entries that cannot match anything (empty, unreadable) are skipped. */
export function parseNoProxy(list: string): NoProxyEntry[] {
  const entries: NoProxyEntry[] = [];
  for (const raw of list.split(/[\s,]+/)) {
    const item = raw.trim().toLowerCase();
    if (item === '') continue;
    if (item === '*') {
      entries.push({ kind: 'all' });
      continue;
    }
    const entry = parseEntry(item);
    if (entry) entries.push(entry);
  }
  return entries;
}

function parseEntry(item: string): NoProxyEntry | undefined {
  let rest = item.replace(/^\*?\./, '');
  let port: string | undefined;
  if (rest.startsWith('[')) {
    // [v6] or [v6]:port
    const end = rest.indexOf(']');
    if (end < 0) return undefined;
    const after = rest.slice(end + 1);
    if (after.startsWith(':') && /^\d+$/.test(after.slice(1))) port = after.slice(1);
    else if (after !== '') return undefined;
    const host = normalHost(`[${rest.slice(1, end)}]`);
    return host === undefined ? undefined : { kind: 'host', host, port };
  }
  if ((rest.match(/:/g) ?? []).length > 1) {
    // A bare IPv6 address.
    const host = normalHost(`[${rest}]`);
    return host === undefined ? undefined : { kind: 'host', host };
  }
  const colon = rest.lastIndexOf(':');
  if (colon >= 0) {
    const tail = rest.slice(colon + 1);
    if (!/^\d+$/.test(tail)) return undefined;
    port = tail;
    rest = rest.slice(0, colon);
  }
  const slash = rest.indexOf('/');
  if (slash >= 0) {
    const base = ipv4Number(rest.slice(0, slash));
    const bits = Number(rest.slice(slash + 1));
    if (base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) return undefined;
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return { kind: 'ipv4-range', base: (base & mask) >>> 0, mask, port };
  }
  const host = rest === '' ? undefined : normalHost(rest);
  return host === undefined ? undefined : { kind: 'host', host, port };
}

/** A host as URL parsing writes it (lower case, punycode, IPv6 shortened), without brackets or a trailing dot. */
function normalHost(text: string): string | undefined {
  try {
    const host = hostOf(new URL(`http://${text}/`).hostname);
    return host === '' ? undefined : host;
  } catch {
    return undefined;
  }
}

/** A dotted IPv4 address as a number, or `undefined` for anything else. */
function ipv4Number(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value >>> 0;
}
