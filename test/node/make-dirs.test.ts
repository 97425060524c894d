import { mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDirs, makeDirsSync } from '../../src/node/fs/make-dirs.js';
import { ensurePrivateDir } from '../../src/node/fs/private-dir.js';

// Issue 41 item 7: Node's recursive mkdir never returns under /proc (ENOENT for the child, EEXIST
// for the parent, again and again), so the config folder, an archive folder (`audit sync --dir`)
// and the sync work folder are made by src/node/fs/make-dirs.ts, one level at a time. The cases
// under /proc run only on Linux.

const onLinux = process.platform === 'linux';
let work: string;
let aFile: string;

beforeAll(() => {
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
