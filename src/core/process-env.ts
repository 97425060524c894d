// The process's environment as the library sees it: read only here (and through client-env.ts,
// which maps it to client options), never at import time.

/** An environment: variable names to values. */
type Env = Readonly<Record<string, string | undefined>>;

/** The environment of the process, or none where the runtime has no `process`. */
export function processEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

/**
 * The file of Node's `NODE_EXTRA_CA_CERTS`, which Node adds to its roots at startup: kept when
 * the `ca` option replaces the default set on a Node without `tls.getCACertificates`.
 */
export function nodeExtraCaCertsFile(): string | undefined {
  return processEnv().NODE_EXTRA_CA_CERTS?.trim() || undefined;
}
