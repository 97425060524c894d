import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AbortError } from '../../../core/errors/error-classes.js';
import { fileFault } from '../../../core/file-faults.js';
import type { ReadableLike } from '../../../core/node-shapes.js';
import { BatchInputError } from '../errors.js';

/** The input as a file on disk, its size, and the hash of its bytes (the default run id). */
export interface InputFile {
  path: string;
  size: number;
  sha256: string;
  /** Deletes the private copy of a stream input; does nothing for a file input. */
  removeCopy(): Promise<void>;
}

/**
 * Hashes a file (streamed); a stream is first copied to a private temporary folder (0700, random
 * name). The copy is removed by `removeCopy`, on a failed or interrupted copy, and, should the
 * process exit without either (a second Ctrl-C), by an `exit` hook. Only SIGKILL leaves it behind.
 */
export async function prepareInput(input: string | ReadableLike, signal?: AbortSignal): Promise<InputFile> {
  const name = typeof input === 'string' ? input : '-';
  let path = name;
  let dir: string | undefined;
  const onExit = () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  const removeCopy = async () => {
    process.off('exit', onExit);
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  if (typeof input !== 'string') {
    dir = mkdtempSync(join(tmpdir(), 'svc-batch-'));
    process.on('exit', onExit);
    path = join(dir, 'stdin.csv');
    try {
      await pipeline(input, createWriteStream(path, { mode: 0o600, flags: 'wx' }), { signal });
    } catch (error) {
      await removeCopy();
      if (signal?.aborted) throw new AbortError('Interrupted while reading the input; nothing was sent');
      throw error;
    }
  }
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new BatchInputError(`${name} is not a file`);
    size = stat.size;
  } catch (error) {
    await removeCopy();
    if (error instanceof BatchInputError) throw error;
    throw new BatchInputError(`cannot read ${name}: ${fileFault(error)}`);
  }
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (error) {
    await removeCopy();
    throw error;
  }
  return { path, size, sha256: hash.digest('hex'), removeCopy };
}
