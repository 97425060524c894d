import { createHash } from 'node:crypto';
import { SvcError } from '../../core/errors/error-classes.js';
import { LineSplitter } from '../audit-archive/data-lines.js';
import { checkAborted } from '../audit-archive/files.js';
import { scanEventLine } from '../audit-export/raw-page.js';
import type { ArchiveStore, CreateOutcome } from '../audit-store/archive-store.js';
import { PUSH_SPOOL_NAME, pushSpoolName } from '../audit-store/layout.js';

// The push spool: what `svc audit receive` accepted and sync has not reconciled yet. Each accepted
// batch's new events are one object of the archive, written once before the push is answered
// 2xx, named by the `occurredAt` span of its events. Sync reads the objects its run's range meets,
// compares them with the pull API and removes them (reconcile.ts in audit-sync).

/** Largest spool object read back (256 MiB): far over any batch a receiver accepts (its body cap is at most this). */
export const MAX_SPOOL_OBJECT_BYTES = 256 * 1024 * 1024;

/** Latest `occurredAt` a spool name can hold: 13 digits of ms (the year 2286). */
const MAX_SPOOL_MS = 9_999_999_999_999;

/** One pushed event as the spool holds it. */
export interface SpoolEvent {
  /** The event's JSON text, one line. */
  line: string;
  id: string;
  /** `occurredAt` in ms since the epoch. */
  occ: number;
}

/** A spool object, from its name. */
export interface SpoolObject {
  name: string;
  /** `occurredAt` of its oldest and newest event, ms. */
  fromMs: number;
  toMs: number;
}

/** The spool object a name is, or undefined when it is not one. */
export function spoolObjectOf(name: string): SpoolObject | undefined {
  const match = PUSH_SPOOL_NAME.exec(name);
  if (!match) return undefined;
  return { name, fromMs: Number(match[1]), toMs: Number(match[2]) };
}

/** Whether `occ` (ms) is an `occurredAt` the spool can place: from the epoch to {@link MAX_SPOOL_MS}. */
export const spoolable = (occ: number): boolean => Number.isInteger(occ) && occ >= 0 && occ <= MAX_SPOOL_MS;

/**
 * The bytes of a spool object of `events`: newest first (as a run's data file), one line each.
 * Its name's digest is of the bytes and `salt`: a receiver salts each write, so a write killed
 * half way (a folder's temporary file left) never blocks its retry; a sync does not, so a rerun
 * finds what it wrote before.
 */
export function spoolBytes(events: readonly SpoolEvent[], salt = ''): { name: string; bytes: Buffer } {
  if (events.length === 0) throw new RangeError('a spool object holds one event or more');
  const sorted = [...events].sort((a, b) => b.occ - a.occ || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Written into one buffer of its size: no joined copy of the batch as a string first.
  let size = 0;
  for (const event of sorted) size += Buffer.byteLength(event.line) + 1;
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const event of sorted) {
    at += bytes.write(event.line, at);
    bytes[at++] = 0x0a;
  }
  const newest = sorted[0] as SpoolEvent;
  const oldest = sorted[sorted.length - 1] as SpoolEvent;
  const digest = createHash('sha256').update(bytes).update(salt).digest('hex').slice(0, 16);
  return { name: pushSpoolName(oldest.occ, newest.occ, digest), bytes };
}

/**
 * Writes `events` as one spool object, once (see {@link spoolBytes} for `salt`). Resolves once
 * the store holds it durably: a folder's file fsynced and renamed into place, a bucket's object
 * written.
 */
export async function writeSpoolObject(
  store: ArchiveStore,
  events: readonly SpoolEvent[],
  salt = '',
): Promise<{ name: string; outcome: CreateOutcome }> {
  const { name, bytes } = spoolBytes(events, salt);
  return { name, outcome: await store.create(name, bytes) };
}

/** The spool objects of an archive, oldest span first. */
export async function listSpool(store: ArchiveStore, signal?: AbortSignal): Promise<SpoolObject[]> {
  const objects: SpoolObject[] = [];
  for (const object of await store.list({ ...(signal && { signal }) })) {
    const spool = spoolObjectOf(object.name);
    if (spool && object.bytes !== null) objects.push(spool);
  }
  return objects.sort((a, b) => a.fromMs - b.fromMs || a.toMs - b.toMs || (a.name < b.name ? -1 : 1));
}

/** Why a spool object cannot be read: one line naming it, with what to do. */
const notSpool = (store: ArchiveStore, name: string, why: string) =>
  new SvcError(
    `${store.describe(name)} is not a push spool object svc audit receive wrote (${why}); move it out of the archive`,
    'bad_archive',
  );

/**
 * Each event of a spool object, as its bytes and its keys. A line that is not an event with a
 * string `id` and an `occurredAt` inside the span its name gives is an `SvcError` (`bad_archive`)
 * naming the object: the spool is the archive's, and nothing else writes it.
 */
export async function* spoolEvents(
  store: ArchiveStore,
  object: SpoolObject,
  signal?: AbortSignal,
): AsyncGenerator<{ bytes: Buffer; id: string; occ: number }> {
  const stream = await store.readStream(object.name, { maxBytes: MAX_SPOOL_OBJECT_BYTES + 1 });
  let read = 0;
  let lineNo = 0;
  const lines: Buffer[] = [];
  const splitter = new LineSplitter(true, (line) => lines.push(line));
  const check = (line: Buffer) => {
    lineNo += 1;
    const keys = scanEventLine(line);
    const occ = keys?.occurredAt === undefined ? Number.NaN : Date.parse(keys.occurredAt);
    if (keys?.id === undefined || !(occ >= object.fromMs && occ <= object.toMs))
      throw notSpool(store, object.name, `line ${lineNo} is not an event of the span its name gives`);
    return { bytes: line, id: keys.id, occ };
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      checkAborted(signal);
      read += chunk.length;
      if (read > MAX_SPOOL_OBJECT_BYTES) throw notSpool(store, object.name, 'larger than 256 MiB');
      splitter.push(chunk);
      for (const line of lines) yield check(line);
      lines.length = 0;
    }
    splitter.end();
    for (const line of lines) yield check(line);
  } finally {
    stream.destroy();
  }
}
