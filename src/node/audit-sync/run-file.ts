import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import { hashObject } from '../audit-archive/files.js';
import type { ManifestFile } from '../audit-archive/manifest.js';
import type { PendingRun } from '../audit-archive/state.js';
import { contentKey, idKey, type KnownEvents, type WindowEvent } from '../audit-archive/window.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { conflictsName, dataFileName } from '../audit-store/layout.js';
import { createWorkFile, readWorkFile } from '../fs/private-dir.js';

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

/** Each line's fate, and the time, id key and content key of each line in range. */
interface Decided {
  fates: Uint8Array;
  occ: Float64Array;
  ids: Float64Array;
  contents: Float64Array;
}

/**
 * First pass over the export: each line's fate. An event outside `[queryFrom, to]` is out of
 * range; of several lines with one id the first is the event and a later one with other content
 * a conflict (the same content: a repeat); an id the window holds is archived already, or a
 * conflict when its content differs.
 */
async function decide(part: FileHandle, plan: PendingRun, known: KnownEvents): Promise<Decided> {
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

/** What the pass that writes the run's data counts, and the first and last event it writes. */
interface WriteTally {
  write: number;
  already: number;
  out: number;
  firstOccurredAt: string | null;
  lastOccurredAt: string | null;
}

/** The conflicts of a run, kept in its work folder until they go up: the file is made at the first one. */
class ConflictSpool {
  private file: FileHandle | undefined;
  private bytes = 0;
  events = 0;

  constructor(private readonly path: string) {}

  /** Appends one line (written through the handle it was created with, never reopened by name). */
  async add(line: string): Promise<void> {
    this.events += 1;
    this.file ??= await createWorkFile(this.path);
    const bytes = Buffer.from(`${line}\n`);
    for (let done = 0; done < bytes.length; ) {
      const at = this.bytes + done;
      done += (await this.file.write(bytes, done, bytes.length - done, at)).bytesWritten;
    }
    this.bytes += bytes.length;
  }

  /** Puts the conflicts up as `name`; null (no object) when the run had none. */
  async upload(target: RunFileTarget, name: string): Promise<ManifestFile | null> {
    if (!this.file) return null;
    const up = await putRunObject(
      target.store,
      name,
      readAll(this.file),
      target.replaceable.has(name),
      target.signal,
    );
    return { name, ...up, events: this.events, firstOccurredAt: null, lastOccurredAt: null };
  }

  async close(): Promise<void> {
    await this.file?.close();
  }
}

const occurredAtOf = (line: string): string => (JSON.parse(line) as { occurredAt: string }).occurredAt;

/**
 * Second pass over the export, by the fates of the first: the lines to write, gathered into
 * chunks; conflicts go to `spool`, each written event to `onEvent`, and `tally` counts them all.
 */
async function* dataChunks(
  part: FileHandle,
  decided: Decided,
  spool: ConflictSpool,
  tally: WriteTally,
  onEvent: (event: WindowEvent, line: () => string) => void,
): AsyncGenerator<Buffer> {
  const { fates, occ, ids, contents } = decided;
  const lastWritten = fates.lastIndexOf(Fate.Write);
  let gathered = '';
  const reader = createInterface({ input: readAll(part), crlfDelay: Number.POSITIVE_INFINITY });
  let i = 0;
  for await (const line of reader) {
    if (line === '') continue;
    const at = i;
    i += 1;
    const fate = fates[at];
    if (fate === Fate.Already) tally.already += 1;
    else if (fate === Fate.OutOfRange) tally.out += 1;
    else if (fate === Fate.Conflict) await spool.add(line);
    else {
      tally.write += 1;
      tally.firstOccurredAt ??= occurredAtOf(line);
      onEvent({ occ: occ[at] as number, id: ids[at] as number, content: contents[at] as number }, () => line);
      if (at === lastWritten) tally.lastOccurredAt = occurredAtOf(line);
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
  const decided = await decide(part, plan, known);
  const name = dataFileName(plan.run, plan.gzip);
  const tally: WriteTally = { write: 0, already: 0, out: 0, firstOccurredAt: null, lastOccurredAt: null };
  const spool = new ConflictSpool(target.conflictsPart);
  let found: { sha256: string; bytes: number };
  let conflicts: ManifestFile | null;
  try {
    const source = Readable.from(dataChunks(part, decided, spool, tally, onEvent), { objectMode: false });
    const body = plan.gzip ? source.pipe(createGzip()) : source;
    found = await putRunObject(target.store, name, body, target.replaceable.has(name), target.signal);
    conflicts = await spool.upload(target, conflictsName(plan.run));
  } finally {
    await spool.close();
  }
  const { firstOccurredAt, lastOccurredAt } = tally;
  return {
    file: {
      name,
      bytes: found.bytes,
      sha256: found.sha256,
      events: tally.write,
      firstOccurredAt,
      lastOccurredAt,
    },
    alreadyArchived: tally.already,
    outOfRange: tally.out,
    conflicts,
  };
}
