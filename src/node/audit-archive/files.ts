import { createHash } from 'node:crypto';
import { AbortError } from '../../core/errors/error-classes.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';

/** Throws `AbortError` once `signal` fired. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError('The verify was interrupted');
}

/** sha256 (hex) of bytes. */
export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/**
 * sha256 and size of an object of the archive; stops with `AbortError` between chunks once
 * `signal` fired. With `maxBytes`, no more is fetched (a longer object gives `bytes: maxBytes`
 * and the digest of those bytes): verify asks for a listed file's size plus one.
 */
export async function hashObject(
  store: ArchiveStore,
  name: string,
  signal?: AbortSignal,
  maxBytes?: number,
): Promise<{ sha256: string; bytes: number }> {
  const file = await store.readStream(name, maxBytes === undefined ? {} : { maxBytes });
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const chunk of file) {
      checkAborted(signal);
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
  } finally {
    file.destroy();
  }
  return { sha256: hash.digest('hex'), bytes };
}
