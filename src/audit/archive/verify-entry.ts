import { loadArchiveVerifier } from '#node-only';
import type { VerifyArchiveOptions, VerifyArchiveResult } from './verify.js';

/**
 * Verifies an archive written by `client.audit.sync`: re-hashes every file, recounts its events,
 * walks the manifest chain, checks that runs meet and that counts matched, and with
 * `options.publicKey` every Ed25519 signature. `ok` is true only when no problem was found; each
 * problem has a one-line message. The verifier loads on first use.
 *
 * @example
 * const { ok, problems } = await verifyAuditArchive('audit-archive', { publicKey: pem });
 * for (const problem of problems) console.log(problem.message);
 */
export async function verifyAuditArchive(
  dir: string,
  options: VerifyArchiveOptions = {},
): Promise<VerifyArchiveResult> {
  const verifier = await loadArchiveVerifier();
  return verifier.verifyAuditArchive(dir, options);
}
