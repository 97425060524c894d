import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import { createWorkFile, readWorkFile } from '../../node/private-dir.js';
import { hashObject } from '../archive/files.js';
import type { ManifestFile } from '../archive/manifest.js';
import type { PendingRun, SyncState } from '../archive/state.js';
import {
  contentKey,
  type EventWindow,
  idKey,
  type KnownEvents,
  WindowBuilder,
  type WindowEvent,
} from '../archive/window.js';
import type { ArchiveStore } from '../store/archive-store.js';
import { conflictsName, dataFileName } from '../store/layout.js';
import { iso } from './options.js';
import { inRange } from './plan.js';

/** The run's file as listed in the manifest, and what was left out of it. */
export interface Written {
  file: ManifestFile;
  /** Events of the query the archive held already (same id, same content), this run's repeats included. */
  alreadyArchived: number;
  /** Events the API returned outside the query's range (or without an id and a time): not written. */
  outOfRange: number;
  /** Events whose id the archive holds with other content, written to the conflicts file; null when none. */
  conflicts: ManifestFile | null;
}

/** What becomes of each line of the export. */
enum Fate {
  Write = 0,
  Already = 1,
  OutOfRange = 2,
  Conflict = 3,
}

/** A growable column of numbers. */
class Column {
  data = new Float64Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
}

/**
 * First pass over the export: each line's fate. An event outside `[queryFrom, to]` is out of
 * range; of several lines with one id the first is the event and a later one with other content
 * a conflict (the same content: a repeat); an id the window holds is archived already, or a
 * conflict when its content differs.
 */
async function decide(
  part: FileHandle,
  plan: PendingRun,
  known: KnownEvents,
): Promise<{ fates: Uint8Array; occ: Float64Array; ids: Float64Array; contents: Float64Array }> {
  const fromMs = Date.parse(plan.queryFrom);
  const toMs = Date.parse(plan.to);
  const ids = new Column();
  const contents = new Column();
  const occs = new Column();
  const fateList: number[] = [];
  const reader = createInterface({ input: readAll(part), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of reader) {
    if (line === '') continue;
    const event = (JSON.parse(line) ?? {}) as { id?: unknown; occurredAt?: unknown };
    const occ = typeof event.occurredAt === 'string' ? Date.parse(event.occurredAt) : Number.NaN;
    const ok = typeof event.id === 'string' && !Number.isNaN(occ) && occ >= fromMs && occ <= toMs;
    fateList.push(ok ? Fate.Write : Fate.OutOfRange);
    ids.push(ok ? idKey(event.id as string) : -1);
    contents.push(ok ? contentKey(line) : 0);
    occs.push(ok ? occ : 0);
  }
  const n = fateList.length;
  const fates = Uint8Array.from(fateList);
  const id = ids.data.subarray(0, n);
  const content = contents.data.subarray(0, n);
  // Lines in id order (file order among equal ids): a later line of an id is a repeat or a conflict.
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (id[a] as number) - (id[b] as number) || a - b,
  );
  let first = -1;
  for (const i of order) {
    if (fates[i] !== Fate.Write) continue;
    if (first >= 0 && id[first] === id[i]) {
      fates[i] = content[first] === content[i] ? Fate.Already : Fate.Conflict;
      continue;
    }
    first = i;
    const archived = known.content(id[i] as number);
    // Content key 0: an event of an older state, whose content is not known.
    if (archived !== undefined)
      fates[i] = archived === 0 || archived === content[i] ? Fate.Already : Fate.Conflict;
  }
  return { fates, occ: occs.data.subarray(0, n), ids: id, contents: content };
}

/** The whole of a work file from its start, through its open handle (which stays open). */
const readAll = (file: FileHandle) => Readable.from(readWorkFile(file), { objectMode: false });

/** Characters of event lines gathered into one chunk of a run's data on its way to the store. */
const CHUNK_CHARS = 64 * 1024;

/** A run's object as the store holds it: hashed on its way up, or checked against what is there. */
async function putRunObject(
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

/** The run's objects, where they go and whether they may replace what is there. */
export interface RunFileTarget {
  store: ArchiveStore;
  /**
   * The run's objects that may be replaced where they exist: a resumed run's own, or with `force`
   * another tool's, never one a manifest lists (see `replaceableOf`). Any other is created once.
   */
  replaceable: ReadonlySet<string>;
  /**
   * Where the conflicts wait before they go up (in the run's work folder): created exclusively,
   * mode 0600, and read back through the handle they were written with.
   */
  conflictsPart: string;
  /** Stops the upload (a bucket's multipart upload is aborted). */
  signal?: AbortSignal;
}

/**
 * Copies the export's lines to the run's data object, leaving out ids the archive holds already and
 * events outside the query's range; events whose id the archive holds with other content go to
 * the run's conflicts object instead. Hands each written event to `onEvent`. The output depends only
 * on the export and the state, so a rerun writes the same bytes.
 */
export async function writeRunFile(
  target: RunFileTarget,
  part: FileHandle,
  plan: PendingRun,
  known: KnownEvents,
  onEvent: (event: WindowEvent, line: () => string) => void,
): Promise<Written> {
  const { store, replaceable } = target;
  const { fates, occ, ids, contents } = await decide(part, plan, known);
  const name = dataFileName(plan.run, plan.gzip);
  const conflictPath = target.conflictsPart;
  const tally = { write: 0, already: 0, out: 0, conflict: 0 };
  let first: string | null = null;
  let last: string | null = null;
  let lastWritten = -1;
  for (let i = fates.length - 1; i >= 0 && lastWritten < 0; i--) if (fates[i] === Fate.Write) lastWritten = i;
  // Opened at the first conflict: a run without one leaves no conflicts object.
  let conflictFile: FileHandle | undefined;
  let conflictBytes = 0;
  async function* lines() {
    let gathered = '';
    const reader = createInterface({
      input: readAll(part),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    let i = 0;
    for await (const line of reader) {
      if (line === '') continue;
      const fate = fates[i];
      const at = i;
      i += 1;
      if (fate === Fate.Already) tally.already += 1;
      else if (fate === Fate.OutOfRange) tally.out += 1;
      else if (fate === Fate.Conflict) {
        tally.conflict += 1;
        conflictFile ??= await createWorkFile(conflictPath);
        const bytes = Buffer.from(`${line}\n`);
        for (let done = 0; done < bytes.length; ) {
          const at = conflictBytes + done;
          done += (await conflictFile.write(bytes, done, bytes.length - done, at)).bytesWritten;
        }
        conflictBytes += bytes.length;
      } else {
        tally.write += 1;
        first ??= (JSON.parse(line) as { occurredAt: string }).occurredAt;
        onEvent(
          { occ: occ[at] as number, id: ids[at] as number, content: contents[at] as number },
          () => line,
        );
        if (at === lastWritten) last = (JSON.parse(line) as { occurredAt: string }).occurredAt;
        gathered += `${line}\n`;
        // Lines go on in chunks of about 64 KiB, not one small buffer each: a bucket's upload
        // holds a part's chunks until the part is sent, and a million small buffers held so
        // raised the run's peak RSS by more than the parts themselves.
        if (gathered.length >= CHUNK_CHARS) {
          yield Buffer.from(gathered);
          gathered = '';
        }
      }
    }
    if (gathered !== '') yield Buffer.from(gathered);
  }
  let found: { sha256: string; bytes: number };
  let conflicts: ManifestFile | null = null;
  try {
    const source = Readable.from(lines(), { objectMode: false });
    found = await putRunObject(
      store,
      name,
      plan.gzip ? source.pipe(createGzip()) : source,
      replaceable.has(name),
      target.signal,
    );
    if (conflictFile) {
      const up = await putRunObject(
        store,
        conflictsName(plan.run),
        readAll(conflictFile),
        replaceable.has(conflictsName(plan.run)),
        target.signal,
      );
      conflicts = {
        name: conflictsName(plan.run),
        ...up,
        events: tally.conflict,
        firstOccurredAt: null,
        lastOccurredAt: null,
      };
    }
  } finally {
    await conflictFile?.close();
  }
  return {
    file: {
      name,
      bytes: found.bytes,
      sha256: found.sha256,
      events: tally.write,
      firstOccurredAt: first,
      lastOccurredAt: last,
    },
    alreadyArchived: tally.already,
    outOfRange: tally.out,
    conflicts,
  };
}

/** Builds the state after a run from the events it writes: the new overlap window, counts per range. */
export class RunTally {
  private readonly ranges: SyncState['ranges'];
  private readonly current: SyncState['ranges'][number];
  private readonly fromMs: number;
  private readonly keepFromMs: number;
  private readonly fresh = new WindowBuilder();
  private newest: SyncState['newest'];
  private newestMs: number;

  constructor(
    private readonly state: SyncState,
    private readonly plan: PendingRun,
    overlapMs: number,
    private readonly known: EventWindow,
  ) {
    this.ranges = state.ranges.map((range) => ({ ...range }));
    for (const hole of plan.lateEvents) {
      // Reported once, in this run's manifest: the missing events are taken as known from now on.
      const occ = Date.parse(hole.to);
      const range = this.ranges.find((r, i) => inRange(r, i, occ));
      if (range) range.events += (hole.apiCount ?? 0) - (hole.archivedCount ?? 0);
    }
    this.current = { from: plan.from, to: plan.to, events: 0 };
    this.fromMs = Date.parse(plan.from);
    this.keepFromMs = Date.parse(plan.to) - overlapMs;
    this.newest = state.newest;
    this.newestMs = state.newest ? Date.parse(state.newest.occurredAt) : Number.NEGATIVE_INFINITY;
  }

  add(event: WindowEvent, line: () => string): void {
    const { occ } = event;
    if (occ >= this.keepFromMs) this.fresh.push(occ, event.id, event.content);
    if (occ > this.newestMs) {
      const parsed = JSON.parse(line()) as { id: string; occurredAt: string };
      this.newest = { id: parsed.id, occurredAt: parsed.occurredAt };
      this.newestMs = occ;
    }
    if (occ > this.fromMs || (this.state.runs === 0 && occ >= this.fromMs)) {
      this.current.events += 1;
      return;
    }
    // A late event inside the overlap: it counts for the earlier run whose range holds it.
    const owner = this.ranges.findLast(
      (r, i) =>
        occ <= Date.parse(r.to) && (occ > Date.parse(r.from) || (i === 0 && occ >= Date.parse(r.from))),
    );
    if (owner) owner.events += 1;
  }

  finish(manifest: { name: string; sha256: string }): SyncState {
    // Events older than the previous window were forgotten: the known window cannot grow backwards.
    const startMs = Math.max(
      this.keepFromMs,
      this.state.recentFrom === null ? Number.NEGATIVE_INFINITY : Date.parse(this.state.recentFrom),
    );
    this.known.addTo(this.fresh);
    const window = this.fresh.build(startMs);
    const { recent: _legacy, ...state } = this.state;
    return {
      ...state,
      runs: this.plan.run,
      watermark: this.plan.to,
      lastManifest: manifest,
      window: window.encode(),
      recentFrom: iso(startMs),
      newest: this.newest,
      ranges: [...this.ranges, this.current],
      pending: null,
    };
  }
}
