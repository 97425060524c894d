import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';

// The one rule for "add the user's CA to Node's roots": a TLS `ca` option replaces Node's trusted
// certificates (and drops NODE_EXTRA_CA_CERTS and the system store with them), so the user's
// certificates are given together with Node's own.

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The PEM certificates in a text, one PEM text each (nothing else of the text). */
export function pemCertificates(text: string): string[] {
  return text.match(PEM_CERTIFICATE) ?? [];
}

type GetCaCertificates = (type?: 'default' | 'bundled' | 'system' | 'extra') => string[];

/**
 * The certificates Node trusts by default: `tls.getCACertificates('default')` where Node has it
 * (22.15 and later: the bundled roots, `NODE_EXTRA_CA_CERTS`, and the system store with
 * `--use-system-ca`), else `tls.rootCertificates` plus the certificates of the
 * `NODE_EXTRA_CA_CERTS` file (Node reads that variable itself; an unreadable file adds nothing, as
 * Node only warns about it).
 */
export function nodeDefaultRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const get = (tls as { getCACertificates?: GetCaCertificates }).getCACertificates;
  if (typeof get === 'function') return get('default');
  const roots = [...tls.rootCertificates];
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (extra) {
    try {
      roots.push(...pemCertificates(readFileSync(extra, 'utf8')));
    } catch {
      // Node warned at startup ("Ignoring extra certs from ...") and trusts only its own roots.
    }
  }
  return roots;
}

/**
 * The `ca` of a TLS connection that trusts `extra` besides Node's defaults
 * ({@link nodeDefaultRoots}), or undefined without extra certificates (Node's defaults apply
 * untouched).
 */
export function trustedRoots(extra: readonly string[] | undefined): string[] | undefined {
  if (!extra || extra.length === 0) return undefined;
  return [...nodeDefaultRoots(), ...extra];
}
