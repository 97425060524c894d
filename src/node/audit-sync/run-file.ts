import { dirname } from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { CheckpointError } from '../../core/errors/error-classes.js';
import { LineSplitter } from '../audit-archive/data-lines.js';
import type { ManifestFile, PushReconcile } from '../audit-archive/manifest.js';
import type { PendingRun } from '../audit-archive/state.js';
import { contentKey, idKey, type KnownEvents, type WindowEvent } from '../audit-archive/window.js';
import { scanEventLine } from '../audit-export/raw-page.js';
import type { ExportedEvent, ExportHeld, ExportSink } from '../audit-export/sink.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { conflictsName, dataFileName } from '../audit-store/layout.js';
import { openWorkFile, readWorkFile } from '../fs/private-dir.js';
import { ConflictSpool } from './conflict-spool.js';
import { Fate, RunFates } from './fates.js';
import type { PushReconciler } from './push-reconcile.js';
import { ChunkQueue, putRunObject } from './upload.js';

/** The run's file as listed in the manifest, and what was left out of it. */
export interface Written {
  file: ManifestFile;
  /** Events of the query the archive held already (same id, same content), this run's repeats included. */
  alreadyArchived: number;
  /** Events the API returned outside the query's range (or without an id and a time): not written. */
  outOfRange: number;
  /**
   * Events kept apart in the conflicts file; null when none: those whose id the archive holds with
   * other content, and the pushed events the pull API did not confirm (`push`).
   */
  conflicts: ManifestFile | null;
  /** The run's reconcile of the push spool; undefined when the archive had none. */
  push?: PushReconcile;
}

/** Events of the conflicts file the pull API gave (ids held with other content): the pushed ones aside. */
export const pulledConflicts = (written: Written): number =>
  (written.conflicts?.events ?? 0) - (written.push ? written.push.unconfirmed + written.push.differing : 0);

/** The run's objects, where they go and whether they may replace what is there. */
export interface RunFileTarget {
  store: ArchiveStore;
  /**
   * The run's objects that may be replaced where they exist: a resumed run's own, or with `force`
   * another tool's, never one a manifest lists (see `replaceableOf`). Any other is created once.
   */
  replaceable: ReadonlySet<string>;
  /** The run's export in its work folder, read back only for the events a resumed export held before. */
  partPath: string;
  /**
   * Where the conflicts wait before they go up (in the run's work folder): created exclusively,
   * mode 0600, and read back through the handle they were written with.
   */
  conflictsPart: string;
  /** Stops the upload (a bucket's multipart upload is aborted). */
  signal?: AbortSignal;
}

/** A written event's `id` and `occurredAt`. */
export interface WrittenKeys {
  id: string;
  occurredAt: string;
}

/** What the writer counts, and the first and last event it writes. */
interface WriteTally {
  write: number;
  already: number;
  out: number;
  firstOccurredAt: string | null;
  lastOccurredAt: string | null;
}

/**
 * Bytes of event lines gathered into one chunk of a run's data on its way to the store: lines go
 * on in chunks of about 64 KiB, not one small buffer each, since a bucket's upload holds a part's
 * chunks until the part is sent, and a million small buffers held so raised the run's peak RSS by
 * more than the parts themselves.
 */
const CHUNK_BYTES = 64 * 1024;

/**
 * Writes a run's objects from the events of its export as the exporter hands them over (an
 * {@link ExportSink}), while the export runs: the data object goes up as the events come, without
 * ids the archive holds already and events outside the query's range; events whose id the archive
 * holds with other content go to the conflicts object instead. The events a resumed export held
 * before are read back from its part first. Each written event goes to `onEvent`. The output
 * depends only on the export and the state, so a rerun writes the same bytes.
 */
export class RunWriter implements ExportSink {
  private readonly fromMs: number;
  private readonly toMs: number;
  private readonly fates: RunFates;
  private readonly spool: ConflictSpool;
  private readonly queue = new ChunkQueue();
  private readonly tally: WriteTally = {
    write: 0,
    already: 0,
    out: 0,
    firstOccurredAt: null,
    lastOccurredAt: null,
  };
  /** The chunk being gathered, reused: each chunk goes up as a copy of its exact size. */
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private upload: Promise<{ sha256: string; bytes: number }> | undefined;

  constructor(
    private readonly target: RunFileTarget,
    private readonly plan: PendingRun,
    known: KnownEvents,
    private readonly onEvent: (event: WindowEvent, keys: WrittenKeys) => void,
    /** The push spool the run reconciles, when the archive has one. */
    private readonly pushed?: PushReconciler,
  ) {
    this.fromMs = Date.parse(plan.queryFrom);
    this.toMs = Date.parse(plan.to);
    this.fates = new RunFates(known);
    this.spool = new ConflictSpool(target.conflictsPart);
  }

  /** The events the export held before this run (a resumed run's), read back from its part. */
  async start(held: ExportHeld): Promise<void> {
    if (held.bytes > 0) await this.replay(held.bytes);
  }

  async page(events: readonly ExportedEvent[]): Promise<void> {
    for (const event of events) {
      const pending = this.take(event.bytes, event.id, event.occurredAt);
      if (pending) await pending;
    }
  }

  /**
   * Ends the run's objects once the export is done: the data object, then the conflicts object.
   * `exported`: the events the export's output holds, each of which must have been handed over.
   */
  async finish(exported: number): Promise<Written> {
    const { write, already, out } = this.tally;
    const seen = write + already + out + this.spool.events;
    if (seen !== exported) {
      const error = new CheckpointError(
        `The run's export holds ${exported} events but ${seen} reached the run; delete ${dirname(this.target.partPath)} to export the run again`,
        'resume_failed',
      );
      await this.abandon(error);
      throw error;
    }
    try {
      if (this.used > 0) await this.flush();
      this.upload ??= this.startUpload();
      this.queue.end();
      const found = await this.upload;
      const push = await this.pushed?.keepApart((line) => this.spool.add(line));
      const name = conflictsName(this.plan.run);
      const { store, replaceable, signal } = this.target;
      const replace = replaceable.has(name);
      const conflicts = await this.spool.upload({ store, name, replace, ...(signal && { signal }) });
      const { firstOccurredAt, lastOccurredAt } = this.tally;
      // Keys in the order manifests have always listed them: the manifest's bytes are the chain's.
      const { bytes, sha256 } = found;
      const file = { name: this.dataName, bytes, sha256, events: write, firstOccurredAt, lastOccurredAt };
      return { file, alreadyArchived: already, outOfRange: out, conflicts, ...(push && { push }) };
    } finally {
      await this.spool.close();
    }
  }

  /** Stops the run's objects after the export failed: the data upload is aborted, nothing stays up. */
  async abandon(error: unknown): Promise<void> {
    this.queue.fail(error);
    await this.upload?.catch(() => {});
    await this.spool.close();
  }

  private get dataName(): string {
    return dataFileName(this.plan.run, this.plan.gzip);
  }

  /** One event, in export order: counted, written, or kept as a conflict. */
  private take(line: Uint8Array, id: string | undefined, occurredAt: string | undefined) {
    const occ = occurredAt === undefined ? Number.NaN : Date.parse(occurredAt);
    // Outside the query (or without an id and a time): counted, not written.
    if (id === undefined || !(occ >= this.fromMs && occ <= this.toMs)) {
      this.tally.out += 1;
      return undefined;
    }
    const key = idKey(id);
    const content = contentKey(line);
    const fate = this.fates.next(key, content);
    this.pushed?.see(key, content, line, fate === Fate.Write);
    if (fate === Fate.Already) {
      this.tally.already += 1;
      return undefined;
    }
    if (fate === Fate.Conflict) return this.spool.add(line);
    const at = occurredAt as string;
    this.tally.write += 1;
    this.tally.firstOccurredAt ??= at;
    this.tally.lastOccurredAt = at;
    this.onEvent({ occ, id: key, content }, { id, occurredAt: at });
    return this.append(line);
  }

  /** Adds a line to the chunk; sends the chunk once it holds {@link CHUNK_BYTES}. */
  private append(line: Uint8Array): Promise<void> | undefined {
    const needed = this.used + line.length + 1;
    if (needed > this.chunk.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.chunk.length * 2));
      this.chunk.copy(grown, 0, 0, this.used);
      this.chunk = grown;
    }
    this.chunk.set(line, this.used);
    this.chunk[needed - 1] = 0x0a;
    this.used = needed;
    return this.used >= CHUNK_BYTES ? this.flush() : undefined;
  }

  private flush(): Promise<void> {
    const out = Buffer.allocUnsafeSlow(this.used);
    this.chunk.copy(out, 0, 0, this.used);
    this.used = 0;
    this.upload ??= this.startUpload();
    return this.queue.push(out);
  }

  /** The data object's upload, reading the queue; a failed one stops the export at its next chunk. */
  private startUpload(): Promise<{ sha256: string; bytes: number }> {
    const { store, replaceable, signal } = this.target;
    const body = this.plan.gzip
      ? pipeline(Readable.from(this.queue, { objectMode: false }), createGzip(), () => {})
      : this.queue;
    const upload = putRunObject(store, this.dataName, body, replaceable.has(this.dataName), signal);
    upload.catch((error: unknown) => this.queue.fail(error));
    return upload;
  }

  /** The first `bytes` of the part (what a resumed export held), line by line, through one checked handle. */
  private async replay(bytes: number): Promise<void> {
    const path = this.target.partPath;
    const part = await openWorkFile(path);
    try {
      const lines: Buffer[] = [];
      const splitter = new LineSplitter(true, (line) => lines.push(line));
      let left = bytes;
      for await (const chunk of readWorkFile(part)) {
        splitter.push(chunk.length > left ? chunk.subarray(0, left) : chunk);
        left -= chunk.length;
        if (left <= 0) splitter.end();
        for (const line of lines) {
          const keys = scanEventLine(line);
          if (!keys)
            throw new CheckpointError(
              `Cannot resume: the run's export ${path} holds a line that is not JSON; delete ${dirname(path)} to export the run again`,
              'resume_failed',
            );
          const pending = this.take(line, keys.id, keys.occurredAt);
          if (pending) await pending;
        }
        lines.length = 0;
        if (left <= 0) return;
      }
      throw new CheckpointError(
        `Cannot resume: the run's export ${path} is shorter than its state says; delete ${dirname(path)} to export the run again`,
        'resume_failed',
      );
    } finally {
      await part.close();
    }
  }
}
