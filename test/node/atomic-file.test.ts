import {
  constants,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/cli/error-line.js';
import {
  type AtomicFileOptions,
  type AtomicFileSystem,
  RENAME_RETRY,
  replaceFileAtomic,
} from '../../src/node/fs/atomic-file.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'svc-atomic-'));

const fault = (code: string) => Object.assign(new Error(`${code}: injected`), { code, syscall: 'rename' });

/**
 * Real fs calls, recorded; `renameFails` lists the errors the next renames throw, one per call.
 * `delays` records each wait instead of waiting.
 */
function harness(platform: NodeJS.Platform, renameFails: string[] = [], syncFails?: string) {
  const calls: Array<{ op: string; path: string; flags?: number }> = [];
  const delays: number[] = [];
  const fs: AtomicFileSystem = {
    async open(path, flags, mode) {
      calls.push({ op: 'open', path, flags });
      const handle = await open(path, flags, mode);
      if (!syncFails || flags === constants.O_RDONLY) return handle;
      // A file whose fsync fails (a full disk found at sync time).
      return new Proxy(handle, {
        get(target, key) {
          if (key === 'sync') return () => Promise.reject(fault(syncFails));
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as FileHandle;
    },
    async rename(from, to) {
      calls.push({ op: 'rename', path: to });
      const code = renameFails.shift();
      if (code) throw fault(code);
      await rename(from, to);
    },
    rm,
  };
  const options: AtomicFileOptions = {
    platform,
    fs,
    delay: async (ms) => {
      delays.push(ms);
    },
  };
  return { calls, delays, options };
}

function target(content = 'old') {
  const dir = fresh();
  const path = join(dir, 'state.json');
  writeFileSync(path, content);
  return { dir, path };
}

describe('on Windows a rename refused because the target is held open is retried with growing delays', () => {
  it.each(['EPERM', 'EACCES', 'EBUSY'])('%s three times, then the file is replaced', async (code) => {
    const { dir, path } = target();
    const { delays, options, calls } = harness('win32', [code, code, code]);
    await replaceFileAtomic(path, 'new', options);
    expect(delays).toEqual([10, 20, 30]);
    expect(calls.filter((c) => c.op === 'rename')).toHaveLength(4);
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('gives up after 10 s of waiting with the original error, the old file whole and no temporary file', async () => {
    const { dir, path } = target();
    const { delays, options } = harness('win32', Array(1000).fill('EPERM'));
    const error = await replaceFileAtomic(path, 'new', options).catch((e: unknown) => e);
    expect(delays.slice(0, 12)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 100, 100]);
    const waited = delays.reduce((a, b) => a + b, 0);
    expect(waited).toBeLessThanOrEqual(RENAME_RETRY.totalMs);
    expect(waited).toBeGreaterThan(RENAME_RETRY.totalMs - RENAME_RETRY.maxDelayMs);
    expect(error).toMatchObject({
      message: `cannot replace ${path}: operation not permitted (EPERM)`,
      code: 'io',
      cause: { code: 'EPERM' },
    });
    expect(describeError(error)).toEqual({
      code: 1,
      line: `cannot replace ${path}: operation not permitted (EPERM)`,
    });
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('on POSIX the same codes are lasting (sticky directory, immutable file): no retry', async () => {
    const { path } = target();
    const { delays, options } = harness('linux', ['EPERM']);
    const error = await replaceFileAtomic(path, 'new', options).catch((e: unknown) => e);
    expect(delays).toEqual([]);
    expect(error).toMatchObject({ message: `cannot replace ${path}: operation not permitted (EPERM)` });
  });
});

describe('other rename errors are not retried', () => {
  it.each([
    ['ENOENT', 'no such file or directory'],
    ['ENOSPC', 'no space left on device'],
    ['EXDEV', 'EXDEV: injected'],
  ])('%s fails at once, the temporary file removed', async (code, words) => {
    const { dir, path } = target();
    const { delays, options, calls } = harness('win32', [code, code]);
    const error = await replaceFileAtomic(path, 'new', options).catch((e: unknown) => e);
    expect(delays).toEqual([]);
    expect(calls.filter((c) => c.op === 'rename')).toHaveLength(1);
    expect((error as Error).message).toBe(`cannot replace ${path}: ${words} (${code})`);
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});

describe('a failed write never leaves a half-written target nor a temporary file', () => {
  it('content that fails half way: the old file whole', async () => {
    const { dir, path } = target('old whole');
    const { options } = harness('linux');
    async function* halfThenFail() {
      yield 'x'.repeat(100_000);
      throw fault('EIO');
    }
    await expect(replaceFileAtomic(path, halfThenFail(), options)).rejects.toMatchObject({ code: 'EIO' });
    expect(readFileSync(path, 'utf8')).toBe('old whole');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('an fsync that fails (full disk): no rename, the old file whole', async () => {
    const { dir, path } = target('old whole');
    const { options, calls } = harness('linux', [], 'ENOSPC');
    await expect(replaceFileAtomic(path, 'new', options)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(calls.some((c) => c.op === 'rename')).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('old whole');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('a link planted at a fixed temporary name is refused, never followed', async () => {
    const { dir, path } = target();
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, `${path}.svc-tmp`);
    const error = await replaceFileAtomic(path, 'new', { tmp: `${path}.svc-tmp` }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(readFileSync(path, 'utf8')).toBe('old');
  });

  it('the new file has the given mode whatever the umask', async () => {
    const { path } = target();
    const before = process.umask(0o077);
    try {
      await replaceFileAtomic(path, 'new', { mode: 0o640 });
    } finally {
      process.umask(before);
    }
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });
});

describe('the directory is fsynced after the rename on POSIX, never on Windows', () => {
  it('linux: the directory is opened read-only after the rename', async () => {
    const { dir, path } = target();
    const { options, calls } = harness('linux');
    await replaceFileAtomic(path, 'new', options);
    expect(calls.map((c) => (c.path === dir ? `${c.op} dir` : c.op))).toEqual(['open', 'rename', 'open dir']);
    expect(calls[2]?.flags).toBe(constants.O_RDONLY);
  });

  it('win32: no directory is opened (fsync of a directory is EPERM there)', async () => {
    const { path } = target();
    const { options, calls } = harness('win32');
    await replaceFileAtomic(path, 'new', options);
    expect(calls.map((c) => c.op)).toEqual(['open', 'rename']);
  });
});
