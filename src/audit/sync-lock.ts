import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SvcError } from '../core/errors/svc-error.js';

/** Name of the lock file a sync holds in its directory while it runs. */
const LOCK_FILE = 'sync.lock';

interface LockOwner {
  pid: number;
  host: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(path: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string'
      ? { pid: owner.pid, host: owner.host }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock of a sync directory: `sync.lock`, created exclusively, holding the pid and host
 * name. A lock left by a process of this host that no longer runs is stale and taken over; a lock
 * of a live process, of another host (a shared or restored directory), or one that cannot be read
 * is refused with an error naming the file to delete once no sync runs. Returns the release.
 */
export async function acquireSyncLock(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: hostname() };
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(path, `${JSON.stringify(me)}\n`, { flag: 'wx' });
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(path);
    const stale = owner !== undefined && owner.host === me.host && !alive(owner.pid);
    if (!stale || attempt > 0) {
      const who = owner ? `process ${owner.pid} on ${owner.host}` : 'an unknown process';
      throw new SvcError(
        `${dir} is locked by ${who} (${path}); two syncs cannot share a directory. If no sync runs, delete the lock file`,
        'locked',
      );
    }
    await rm(path, { force: true });
  }
}
