// The sync lock of a bucket archive: one object, created once, renewed while its holder runs.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { SvcError } from '../../core/errors/error-classes.js';
import type { ReleaseLock } from './archive-store.js';
import { alive } from './folder-lock.js';

/** What the lock object holds. */
export interface LockBody {
  token: string;
  host: string;
  pid: number;
  /** ISO time after which another run may take the lock over. */
  expires: string;
}

/** The lock object's body, or undefined when it is not one (a hand-made or damaged object). */
export function parseLock(text: string | undefined): LockBody | undefined {
  try {
    const body = JSON.parse(text ?? '') as Partial<LockBody>;
    return typeof body.token === 'string' &&
      typeof body.host === 'string' &&
      typeof body.pid === 'number' &&
      typeof body.expires === 'string' &&
      !Number.isNaN(Date.parse(body.expires))
      ? (body as LockBody)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What the lock needs of the store: its one object, read and written conditionally. */
export interface LockObjectIo {
  /** The archive, for messages (`s3://bucket/prefix`). */
  readonly location: string;
  /** The lock object, for messages (`s3://bucket/prefix/sync.lock`). */
  readonly where: string;
  /** Creates the object when it does not exist (`If-None-Match: *`). */
  create(text: string): Promise<'created' | 'exists'>;
  /** The object's text and ETag, or `missing`; rejects when the store cannot be read. */
  read(): Promise<LockObject | 'missing'>;
  /**
   * Replaces the object only while its ETag is `etag` (`If-Match`): rejects with the store's own
   * 412 error when it is not, with a one-line fault for anything else.
   */
  replaceIf(text: string, etag: string): Promise<void>;
  /** Whether an error is the store's 412 (Precondition Failed). */
  isPreconditionFailed(error: unknown): boolean;
  /** Removes the object. */
  remove(): Promise<void>;
}

/** The lock object as read. */
export interface LockObject {
  text: string;
  etag: string | undefined;
}

/** How the lock lives: its lifetime, clock, renewal schedule and warnings. */
export interface LockLife {
  /** Lifetime of the lock, ms: renewed every third of it; one not renewed for this long may be taken over. */
  ttlMs: number;
  /** The clock of the expiry. */
  now: () => number;
  /** Calls `task` every `everyMs` ms until the returned function is called; `task` settles when the renewal is done. */
  schedule: (everyMs: number, task: () => Promise<void>) => () => void;
  /** Receives one line when the lock was taken over by another run. */
  onWarning?: (line: string) => void;
}

/** An interval timer that does not keep the process alive. */
export function everyInterval(everyMs: number, task: () => Promise<void>): () => void {
  const timer = setInterval(() => void task(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether a lock may be taken over: its expiry passed, or its holder ran on this host and is gone (killed). */
function isStale(holder: LockBody | undefined, now: number): boolean {
  return (
    holder !== undefined &&
    (Date.parse(holder.expires) <= now || (holder.host === hostname() && !alive(holder.pid)))
  );
}

/**
 * Takes the lock object: created with `If-None-Match: *`, so of any number of runs one gets it; a
 * stale one is replaced conditionally on the ETag read, so of runs taking over the same lock one
 * gets it. While held, the expiry is moved on every third of the lifetime (read, check the token
 * is still this run's, replace with `If-Match`), so a long run keeps it and a killed one frees it
 * within one lifetime. A lock taken over meanwhile (its holder was stopped for longer than the
 * lifetime) is left to its new holder with one warning; the write-once manifests keep the two
 * runs apart. Returns the release, which stops the renewal and removes the object only while it
 * is still this run's.
 */
export async function holdS3Lock(io: LockObjectIo, life: LockLife): Promise<ReleaseLock> {
  const token = randomUUID();
  const text = () =>
    `${JSON.stringify({ token, host: hostname(), pid: process.pid, expires: new Date(life.now() + life.ttlMs).toISOString() })}\n`;
  const ours = (seen: LockObject | 'missing' | undefined) =>
    typeof seen === 'object' && parseLock(seen.text)?.token === token;
  const taken = await acquire(io, life, text, ours);
  if (taken !== true) {
    const who = taken ? `a sync on ${taken.host} until ${taken.expires}` : 'an unknown sync';
    throw new SvcError(
      `${io.location} is locked by ${who} (${io.where}); two syncs cannot share an archive. If no sync runs, delete that object`,
      'locked',
    );
  }
  /** `held` until the lock turns out to be another's (`lost`) or the run lets it go (`released`). */
  let state: 'held' | 'lost' | 'released' = 'held';
  let renewing: Promise<void> = Promise.resolve();
  // A read or write that fails (the store unreachable for a while) rejects: the next tick tries
  // again. A 412 means the lock changed between the read and the write: the next tick finds out whose it is.
  const renew = async () => {
    if (state !== 'held') return;
    const seen = await io.read();
    if (!ours(seen)) {
      state = 'lost';
      life.onWarning?.(
        `the lock ${io.where} is no longer this run's (removed, or taken over by another sync after this run was not heard from for its lifetime): of two runs, the manifest written first is kept and the other refused`,
      );
      return;
    }
    if (typeof seen === 'object' && seen.etag) await io.replaceIf(text(), seen.etag);
  };
  const stop = life.schedule(Math.max(Math.floor(life.ttlMs / 3), 1), () => {
    renewing = renewing.then(renew).catch(() => {});
    return renewing;
  });
  return async () => {
    stop();
    state = 'released';
    await renewing;
    if (ours(await io.read().catch(() => undefined))) await io.remove();
  };
}

/** One attempt at the lock: true when this run holds it, else the holder last read (undefined when unknown). */
async function acquire(
  io: LockObjectIo,
  life: LockLife,
  text: () => string,
  ours: (seen: LockObject | 'missing' | undefined) => boolean,
): Promise<true | LockBody | undefined> {
  const holderOf = (seen: LockObject | 'missing' | undefined) =>
    typeof seen === 'object' ? parseLock(seen.text) : undefined;
  if ((await io.create(text())) === 'created') return true;
  const seen = await io.read().catch(() => undefined);
  // Our own lock: the create took effect but its answer was lost, and the SDK's retry got 412.
  if (ours(seen)) return true;
  if (typeof seen !== 'object' || !seen.etag || !isStale(holderOf(seen), life.now())) return holderOf(seen);
  try {
    await io.replaceIf(text(), seen.etag);
    return true;
  } catch (error) {
    if (!io.isPreconditionFailed(error)) throw error;
    // 412: another run took it over, or this one did and the SDK retried after a lost answer.
    const now = await io.read().catch(() => undefined);
    return ours(now) ? true : holderOf(now);
  }
}
