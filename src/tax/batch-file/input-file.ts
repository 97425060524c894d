import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BatchInputError } from './errors.js';

/** The input as a file on disk, its size, and the hash of its bytes (the default run id). */
export interface InputFile {
  path: string;
  size: number;
  sha256: string;
  /** Deletes the private copy of a stream input; does nothing for a file input. */
  removeCopy(): Promise<void>;
}

/** Hashes a file (streamed); a stream is first copied to a private temporary file. */
export async function prepareInput(input: string | Readable): Promise<InputFile> {
  const name = typeof input === 'string' ? input : '-';
  let path = name;
  let dir: string | undefined;
  const removeCopy = async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  if (typeof input !== 'string') {
    dir = mkdtempSync(join(tmpdir(), 'svc-batch-'));
    path = join(dir, 'stdin.csv');
    await pipeline(input, createWriteStream(path, { mode: 0o600 }));
  }
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new BatchInputError(`${name} is not a file`);
    size = stat.size;
  } catch (error) {
    await removeCopy();
    if (error instanceof BatchInputError) throw error;
    throw new BatchInputError(`cannot read ${name}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { path, size, sha256: hash.digest('hex'), removeCopy };
}
