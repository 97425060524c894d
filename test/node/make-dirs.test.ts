import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDirs, makeDirsSync } from '../../src/node/make-dirs.js';
import { ensurePrivateDir } from '../../src/node/private-dir.js';
import { BIN, collectOutput, ensureBuilt } from '../helpers/built-cli.js';
import { lines } from '../helpers/run-bin.js';

// Issue 41 item 7: Node's recursive mkdir never returns under /proc (ENOENT for the child, EEXIST
// for the parent, again and again), so the config folder, an archive folder (`audit sync --dir`)
// and the sync work folder are made by src/node/make-dirs.ts, one level at a time. The cases
// under /proc run only on Linux.

const onLinux = process.platform === 'linux';
let work: string;
let aFile: string;

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'svc-make-dirs-'));
  aFile = join(work, 'a-file');
  writeFileSync(aFile, 'not a folder\n');
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('makeDirs and makeDirsSync make missing folders top down with the mode, and say why they cannot', () => {
  it.each([
    ['sync', async (path: string, mode?: number) => makeDirsSync(path, mode)],
    ['async', makeDirs],
  ] as const)(
    '%s: nested folders, again without error, ENOTDIR through a file or onto one',
    async (_, make) => {
      const base = mkdtempSync(join(work, 'dirs-'));
      const deep = join(base, 'a', 'b', 'c');
      await make(deep, 0o700);
      expect(statSync(deep).isDirectory()).toBe(true);
      expect(statSync(join(base, 'a')).mode & 0o777).toBe(0o700);
      await make(deep, 0o700);
      await expect(make(join(aFile, 'x', 'y'))).rejects.toMatchObject({ code: 'ENOTDIR' });
      await expect(make(aFile)).rejects.toMatchObject({ code: 'ENOTDIR', path: aFile });
      const dangling = join(base, 'dangling');
      symlinkSync(join(base, 'nowhere'), dangling);
      await expect(make(dangling)).rejects.toMatchObject({ code: 'EEXIST' });
    },
  );

  it.runIf(onLinux)(
    'under /proc: ENOENT naming the level that failed, at once (Node: never returns)',
    async () => {
      expect(() => makeDirsSync('/proc/.svc-test/x')).toThrow(
        expect.objectContaining({ code: 'ENOENT', path: '/proc/.svc-test' }),
      );
      await expect(makeDirs('/proc/.svc-test/x')).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(ensurePrivateDir('/proc/.svc-test/work')).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );
});

describe('an archive folder that cannot be made is one line and exit 1, never a loop', () => {
  it.runIf(onLinux)(
    'svc --sandbox audit sync --dir /proc/x/archive, and through a regular file',
    async () => {
      for (const dir of ['/proc/x/archive', join(aFile, 'archive')]) {
        const started = Date.now();
        const child = spawn(process.execPath, [BIN, '--sandbox', 'audit', 'sync', '--dir', dir], {
          env: { PATH: process.env.PATH ?? '', HOME: work, NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const output = collectOutput(child);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        clearTimeout(timer);
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(code).toBe(1);
        expect(lines(output().stderr)).toEqual([
          expect.stringMatching(/^svc: .+: (no such file|a part of the path)/),
        ]);
      }
    },
  );
});
