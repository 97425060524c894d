import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ManifestFile } from '../audit-archive/manifest.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { createWorkFile, readWorkFile } from '../fs/private-dir.js';
import { putRunObject } from './upload.js';

/** Where the conflicts object of a run goes, and whether it may replace what is there. */
export interface ConflictsTarget {
  store: ArchiveStore;
  name: string;
  replace: boolean;
  signal?: AbortSignal;
}

/**
 * The conflicts of a run, kept in its work folder until they go up: the file is created
 * exclusively, mode 0600, at the first one, and read back through the handle it was written with.
 */
export class ConflictSpool {
  private file: FileHandle | undefined;
  private bytes = 0;
  events = 0;

  constructor(private readonly path: string) {}

  /** Appends one event's line (written through the handle it was created with, never reopened by name). */
  async add(line: Uint8Array): Promise<void> {
    this.events += 1;
    this.file ??= await createWorkFile(this.path);
    const bytes = Buffer.concat([line, LINE_BREAK]);
    for (let done = 0; done < bytes.length; ) {
      const at = this.bytes + done;
      done += (await this.file.write(bytes, done, bytes.length - done, at)).bytesWritten;
    }
    this.bytes += bytes.length;
  }

  /** Puts the conflicts up; null (no object) when the run had none. */
  async upload(target: ConflictsTarget): Promise<ManifestFile | null> {
    if (!this.file) return null;
    const body = Readable.from(readWorkFile(this.file), { objectMode: false });
    const up = await putRunObject(target.store, target.name, body, target.replace, target.signal);
    return { name: target.name, ...up, events: this.events, firstOccurredAt: null, lastOccurredAt: null };
  }

  /** Closes the file (once: a second call does nothing). */
  async close(): Promise<void> {
    const { file } = this;
    this.file = undefined;
    await file?.close();
  }
}

const LINE_BREAK = Buffer.from('\n');
