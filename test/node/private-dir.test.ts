import {
  chmodSync,
  chownSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputPathError } from '../../src/core/errors/index.js';
import {
  createWorkFile,
  ensurePrivateDir,
  openWorkFile,
  readWorkFile,
  userWorkRoot,
} from '../../src/node/fs/private-dir.js';

const root = mkdtempSync(join(tmpdir(), 'svc-private-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `case-${++n}`);
const posix = process.platform !== 'win32';
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

/** The refusal of `ensurePrivateDir(path)`, as its one line. */
async function refusal(path: string, options?: Parameters<typeof ensurePrivateDir>[1]): Promise<string> {
  const error = await ensurePrivateDir(path, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutputPathError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

describe('a work folder must be the user own: a folder, not a link, of this uid, no group or other bits', () => {
  it('creates an absent folder (and its parents) with mode 0700, and accepts it again', async () => {
    const dir = join(fresh(), 'a', 'b');
    await ensurePrivateDir(dir);
    if (posix) expect(statSync(dir).mode & 0o777).toBe(0o700);
    await ensurePrivateDir(dir);
  });

  it.runIf(posix)(
    'refuses a folder of mode 0777, naming it and chmod 700, and leaves it as it is',
    async () => {
      const dir = fresh();
      mkdirSync(dir);
      chmodSync(dir, 0o777);
      const message = await refusal(dir);
      expect(message).toBe(
        `work folder ${dir} is open to other users (mode 0777); run chmod 700 on it, or give a folder of your own with --work-dir`,
      );
      expect(statSync(dir).mode & 0o777).toBe(0o777);
    },
  );

  it.runIf(posix)('refuses group bits alone (0750) and sticky shared modes (1777)', async () => {
    for (const mode of [0o750, 0o1777, 0o701]) {
      const dir = fresh();
      mkdirSync(dir);
      chmodSync(dir, mode);
      expect(await refusal(dir)).toContain('is open to other users');
    }
  });

  it('refuses a symbolic link, even to a folder of mode 0700 of this user', async () => {
    const target = fresh();
    mkdirSync(target, { mode: 0o700 });
    const link = fresh();
    symlinkSync(target, link, 'dir');
    expect(await refusal(link)).toBe(
      `work folder ${link} is a symbolic link; give the folder itself, or remove the link`,
    );
  });

  it('refuses a file where the folder should be', async () => {
    const file = fresh();
    writeFileSync(file, '', { mode: 0o600 });
    expect(await refusal(file)).toBe(
      `work folder ${file} is not a folder; remove it or give another --work-dir`,
    );
    const inside = join(file, 'sub');
    expect(await refusal(inside)).toBe(
      `work folder ${inside} lies inside a file, not a folder; give another --work-dir`,
    );
  });

  it.runIf(posix)('refuses a folder of another uid (really chowned to nobody when root)', async () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    if (isRoot) {
      chownSync(dir, NOBODY, NOBODY);
      expect(await refusal(dir)).toBe(
        `work folder ${dir} belongs to another user (uid ${NOBODY}); remove it, or give a folder of your own with --work-dir`,
      );
    } else {
      console.log('not root: the other uid is given as the expected owner instead of chowning');
      expect(await refusal(dir, { uid: (process.getuid?.() ?? 0) + 1 })).toContain('belongs to another user');
    }
  });

  it('on Windows only "a folder, not a link" is checked: no owner or modes there', async () => {
    const dir = fresh();
    mkdirSync(dir);
    if (posix) chmodSync(dir, 0o777);
    await ensurePrivateDir(dir, { platform: 'win32', uid: 12345 });
  });
});

describe('the default work root is per user: the cache folder, never the shared temp folder', () => {
  it('is $XDG_CACHE_HOME/svc, ~/.cache/svc, ~/Library/Caches/svc or %LOCALAPPDATA%\\svc', () => {
    expect(userWorkRoot({ XDG_CACHE_HOME: '/c' }, 'linux')).toBe(join('/c', 'svc'));
    // A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
    expect(userWorkRoot({ XDG_CACHE_HOME: 'rel' }, 'linux')).not.toContain('rel');
    expect(userWorkRoot({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32')).toBe(
      join('C:\\Users\\u\\AppData\\Local', 'svc'),
    );
    expect(userWorkRoot({}, 'darwin')).toMatch(/Library[/\\]Caches[/\\]svc$/);
    expect(userWorkRoot({}, 'linux')).toMatch(/\.cache[/\\]svc$/);
    expect(userWorkRoot({}, 'linux').startsWith(tmpdir())).toBe(false);
  });
});

describe('work files are created exclusively with mode 0600 and read back through their handle', () => {
  it('creates a new file 0600 whatever the umask, and refuses an existing file or link', async () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    const path = join(dir, 'run-000001.ndjson');
    const previous = process.umask(0);
    try {
      const handle = await createWorkFile(path);
      await handle.write('a\n');
      await handle.close();
    } finally {
      process.umask(previous);
    }
    if (posix) expect(statSync(path).mode & 0o777).toBe(0o600);
    await expect(createWorkFile(path)).rejects.toMatchObject({ code: 'EEXIST' });
    const outside = fresh();
    writeFileSync(outside, 'theirs');
    const link = join(dir, 'link.ndjson');
    symlinkSync(outside, link);
    await expect(createWorkFile(link)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(outside, 'utf8')).toBe('theirs');
  });

  it('reads the whole file twice through one handle, in chunks past 64 KiB', async () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    const path = join(dir, 'part');
    const body = Buffer.alloc(200_000, 'x');
    writeFileSync(path, body, { mode: 0o600 });
    const handle = await openWorkFile(path);
    try {
      for (let pass = 0; pass < 2; pass++) {
        const chunks: Buffer[] = [];
        for await (const chunk of readWorkFile(handle)) chunks.push(chunk);
        expect(Buffer.concat(chunks).equals(body)).toBe(true);
      }
    } finally {
      await handle.close();
    }
  });

  it.runIf(posix)(
    'refuses to read a work file with a second name, open to others, a link, or of another user',
    async () => {
      const dir = fresh();
      mkdirSync(dir, { mode: 0o700 });
      const linked = join(dir, 'linked');
      writeFileSync(linked, 'x', { mode: 0o600 });
      linkSync(linked, join(dir, 'second-name'));
      await expect(openWorkFile(linked)).rejects.toBeInstanceOf(OutputPathError);
      const open = join(dir, 'open');
      writeFileSync(open, 'x');
      chmodSync(open, 0o666);
      await expect(openWorkFile(open)).rejects.toBeInstanceOf(OutputPathError);
      const symlink = join(dir, 'symlink');
      symlinkSync(open, symlink);
      await expect(openWorkFile(symlink)).rejects.toMatchObject({ code: 'ELOOP' });
      const mine = join(dir, 'mine');
      writeFileSync(mine, 'x', { mode: 0o600 });
      await expect(openWorkFile(mine, { uid: (process.getuid?.() ?? 0) + 1 })).rejects.toBeInstanceOf(
        OutputPathError,
      );
    },
  );
});
