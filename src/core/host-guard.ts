/**
 * DNS-rebinding guard of the local listeners (`svc serve`, `createReferenceServer`, `--sandbox`,
 * `svc webhooks listen`). A page on an attacker's domain that re-resolves its name to 127.0.0.1
 * reaches a loopback port with `Host: attacker.example`; answering only the names the listener
 * was bound under keeps such pages out.
 */

/** How `host` appears in a `Host` header: IPv6 literals in brackets, lower case. */
function _hostName(host: string): string {
  const name = host.toLowerCase();
  return name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
}

/**
 * The `Host` header values a listener bound to `host:port` answers: `127.0.0.1:PORT`,
 * `localhost:PORT`, `[::1]:PORT` and `host:PORT` (lower case); without the port too when it is 80.
 */
export function allowedHostHeaders(host: string, port: number): ReadonlySet<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]', _hostName(host)]);
  const allowed = new Set<string>();
  for (const name of names) {
    allowed.add(`${name}:${port}`);
    if (port === 80) allowed.add(name);
  }
  return allowed;
}

/** Whether a request's `Host` header is one of `allowed`; a missing header is not. */
export function isAllowedHost(header: string | undefined, allowed: ReadonlySet<string>): boolean {
  return header !== undefined && allowed.has(header.trim().toLowerCase());
}

const LOOPBACK_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\]):\d{1,5}$/;

/** Whether `origin` is a page served from loopback: `http://localhost:*`, `http://127.0.0.1:*` or `http://[::1]:*`. */
export function isLoopbackOrigin(origin: string | undefined): origin is string {
  return origin !== undefined && LOOPBACK_ORIGIN.test(origin);
}
