import { randomUUID } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '../../core/errors/error-classes.js';
import { LOCK_FILE, TAKEOVER_FILE } from './layout.js';

/** Mode of the lock files: owner only. */
const LOCK_MODE = 0o600;

interface LockOwner {
  pid: number;
  host: string;
}

/** Whether a process of this host runs (EPERM: it does, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string | undefined): LockOwner | undefined {
  try {
    const owner = JSON.parse(text ?? '') as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host }
      : undefined;
  } catch {
    return undefined;
  }
}

const readText = (path: string) => readFile(path, 'utf8').catch(() => undefined);

/**
 * Creates `path` holding `text` only when it does not exist, never half-written: the text goes to a
 * private file of this process first, then is hard-linked to `path` (atomic, fails when it exists).
 */
async function createExclusive(path: string, text: string, token: string): Promise<boolean> {
  const own = `${path}.${token}`;
  await writeFile(own, text, { flag: 'wx', mode: LOCK_MODE });
  try {
    await link(own, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(own, { force: true });
  }
}

function lockedError(dir: string, path: string, owner: LockOwner | undefined): SvcError {
  const who = owner ? `process ${owner.pid} on ${owner.host}` : 'an unknown process';
  return new SvcError(
    `${dir} is locked by ${who} (${path}); two syncs cannot share a directory. If no sync runs, delete the lock file`,
    'locked',
  );
}

/**
 * Takes the lock of a sync directory: `sync.lock` (mode 0600), created exclusively and complete
 * (hard link of a private file), holding the pid, host name and a token of this holder. A lock left
 * by a process of this host that no longer runs is stale and taken over atomically: only the holder
 * of `sync.lock.takeover` (created exclusively) may remove it, and only when it still holds the
 * very bytes found stale; then the lock is created exclusively again, so of any number of
 * processes taking over the same stale lock exactly one gets it. A lock of a live process, of
 * another host (a shared or restored directory), or one that cannot be read is refused with an
 * error naming the file to delete once no sync runs. Returns the release, which removes the lock
 * only while it is still this holder's.
 */
export async function acquireSyncLock(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  const token = randomUUID();
  const text = `${JSON.stringify({ pid: process.pid, host: hostname(), token })}\n`;
  const release = async () => {
    if ((await readText(path)) === text) await rm(path, { force: true });
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createExclusive(path, text, token)) return release;
    const seen = await readText(path);
    if (seen === undefined) continue; // released meanwhile: try again
    const owner = parseOwner(seen);
    const stale = owner !== undefined && owner.host === hostname() && !alive(owner.pid);
    if (!stale) throw lockedError(dir, path, owner);
    const guard = join(dir, TAKEOVER_FILE);
    if (!(await createExclusive(guard, text, token)))
      throw lockedError(dir, guard, parseOwner(await readText(guard)));
    try {
      // Nobody else removes a lock while this process holds the guard: unchanged bytes are still the stale lock.
      if ((await readText(path)) === seen) await rm(path, { force: true });
    } finally {
      await rm(guard, { force: true });
    }
  }
  throw lockedError(dir, path, parseOwner(await readText(path)));
}
