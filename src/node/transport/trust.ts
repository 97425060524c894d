import { nodeExtraCaCertsFile } from '../../core/process-env.js';
import { pemCertificates } from '../../core/transport/pem.js';
import { nodeBuiltin } from '../fs/builtin.js';

/** `tls.getCACertificates` (Node 22.15+, 23.5+), absent on older Node's types. */
type GetCaCertificates = (type?: 'default' | 'system' | 'bundled' | 'extra') => string[];

/**
 * The certificates a TLS connection trusts when the client is given `ca`: Node's own trusted set
 * plus `extra`. Node's set is `tls.getCACertificates('default')` where Node has it (its bundled
 * roots, `NODE_EXTRA_CA_CERTS`, and the system store under `--use-system-ca`); on older Node,
 * `tls.rootCertificates` plus the certificates of the `NODE_EXTRA_CA_CERTS` file (as Node reads
 * it: a file it cannot read adds nothing). Without `extra`, `undefined`: connections then use
 * Node's defaults untouched, which is the same set.
 */
export function trustedCertificates(extra: readonly string[] | undefined): string[] | undefined {
  if (!extra || extra.length === 0) return undefined;
  const tls = nodeBuiltin('node:tls', 'The ca option');
  const getDefault = (tls as { getCACertificates?: GetCaCertificates }).getCACertificates;
  if (typeof getDefault === 'function') return [...getDefault('default'), ...extra];
  return [...tls.rootCertificates, ...extraCaFileCertificates(), ...extra];
}

/** The certificates of the `NODE_EXTRA_CA_CERTS` file; none when unset or unreadable (Node only warns then). */
function extraCaFileCertificates(): string[] {
  const file = nodeExtraCaCertsFile();
  if (!file) return [];
  try {
    const text = nodeBuiltin('node:fs', 'NODE_EXTRA_CA_CERTS').readFileSync(file, 'utf8');
    return pemCertificates(text);
  } catch {
    return [];
  }
}
