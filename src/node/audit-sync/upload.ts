import { createHash } from 'node:crypto';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import { hashObject } from '../audit-archive/files.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';

// A run's objects on their way to the store: hashed as they go up, or checked against what is there.

/**
 * Chunks handed from the export to an upload while both run: at most `limit` wait, and the
 * export waits while they do (its pages reuse their buffers, so a chunk is always a copy).
 * `fail` stops both sides: the upload reads the error, a waiting or later `push` throws it.
 */
export class ChunkQueue implements AsyncIterable<Uint8Array> {
  private readonly waiting: Uint8Array[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wakeReader: (() => void) | undefined;
  private wakeWriter: (() => void) | undefined;

  constructor(private readonly limit = 4) {}

  async push(chunk: Uint8Array): Promise<void> {
    while (this.failure === undefined && this.waiting.length >= this.limit)
      await new Promise<void>((resolve) => {
        this.wakeWriter = resolve;
      });
    if (this.failure) throw this.failure.error;
    this.waiting.push(chunk);
    this.wake();
  }

  /** No more chunks: the upload ends after those waiting. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** Stops both sides with `error` (the first one given is kept). */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      const chunk = this.waiting.shift();
      if (chunk !== undefined) {
        this.wake();
        yield chunk;
      } else if (this.ended) return;
      else
        await new Promise<void>((resolve) => {
          this.wakeReader = resolve;
        });
    }
  }

  private wake(): void {
    const reader = this.wakeReader;
    const writer = this.wakeWriter;
    this.wakeReader = undefined;
    this.wakeWriter = undefined;
    reader?.();
    writer?.();
  }
}

/** A run's object as the store holds it: hashed on its way up, or checked against what is there. */
export async function putRunObject(
  store: ArchiveStore,
  name: string,
  body: AsyncIterable<Uint8Array>,
  replace: boolean,
  signal: AbortSignal | undefined,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  async function* hashed() {
    for await (const chunk of body) {
      hash.update(chunk);
      bytes += chunk.length;
      yield chunk;
    }
  }
  const source = hashed();
  const outcome = await store.upload(name, source, { replace, ...(signal && { signal }) }).catch((error) => {
    // Interrupted during the upload: the run is resumed like one interrupted during its export.
    throw signal?.aborted
      ? new AbortError('The sync was interrupted during its upload', { cause: error })
      : error;
  });
  // A store that answers `exists` before reading the body: the body is still read, for its hash and the tally.
  for await (const _ of source);
  const sent = { sha256: hash.digest('hex'), bytes };
  if (outcome === 'created') return sent;
  // Write-once: the object is there (another run's, or this run's before it was killed); only the very same bytes will do.
  const there = await hashObject(store, name);
  if (there.sha256 === sent.sha256 && there.bytes === sent.bytes) return there;
  throw new SvcError(
    `${store.describe(name)} exists with other content: another sync wrote this run (two syncs at once?); nothing was replaced`,
    'locked',
  );
}
