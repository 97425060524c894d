import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { OutputPathError, SvcError } from '../../src/core/errors/index.js';
import {
  checkStatePath,
  DEFAULT_FILE_MODE,
  DurableOutput,
  openAppendOutput,
  openOutput,
} from '../../src/node/fs/output-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-output-file-'));
});
const file = (name: string) => join(dir, name);
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('an output is never written through a symbolic link to a file', () => {
  it('refuses a symlink to an existing file and leaves the target whole', async () => {
    writeFileSync(file('precious'), 'keep me');
    symlinkSync(file('precious'), file('out'));
    await expect(DurableOutput.open(file('out'), undefined, { force: true })).rejects.toThrow(
      /out is a symbolic link; refusing to write through it/,
    );
    expect(readFileSync(file('precious'), 'utf8')).toBe('keep me');
  });

  it('refuses a dangling symlink without creating its target', async () => {
    symlinkSync(file('planted'), file('out'));
    await expect(openOutput(file('out'))).rejects.toBeInstanceOf(OutputPathError);
    expect(existsSync(file('planted'))).toBe(false);
  });

  it('refuses a symlink when appending, too', async () => {
    writeFileSync(file('precious'), 'keep me');
    symlinkSync(file('precious'), file('events'));
    await expect(openAppendOutput(file('events'))).rejects.toBeInstanceOf(OutputPathError);
    expect(readFileSync(file('precious'), 'utf8')).toBe('keep me');
  });
});

describe('outputs are created 0600 unless a mode is given', () => {
  it('creates a new output 0600 by default, whatever the umask allows', async () => {
    const out = await DurableOutput.open(file('out'));
    await out.append('x');
    await out.close();
    expect(DEFAULT_FILE_MODE).toBe(0o600);
    expect(modeOf(file('out'))).toBe(0o600);
  });

  it('creates it with the mode asked for', async () => {
    const out = await DurableOutput.open(file('out'), undefined, { mode: 0o640 });
    await out.close();
    expect(modeOf(file('out'))).toBe(0o640);
    const events = await openAppendOutput(file('events'), 0o644);
    await events.close();
    expect(modeOf(file('events'))).toBe(0o644);
  });
});

describe('an existing file with data is replaced only with force', () => {
  it('refuses a file with data, naming it and --force, and leaves it whole', async () => {
    writeFileSync(file('out'), 'old data');
    const error = await DurableOutput.open(file('out')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputPathError);
    expect((error as Error).message).toBe(
      `${file('out')} already exists and is not this run's output; use --force (option force) to replace it`,
    );
    expect(readFileSync(file('out'), 'utf8')).toBe('old data');
  });

  it('takes an empty file (nothing to lose) and replaces one with data under force', async () => {
    writeFileSync(file('empty'), '');
    const a = await DurableOutput.open(file('empty'));
    await a.append('new');
    await a.close();
    expect(readFileSync(file('empty'), 'utf8')).toBe('new');
    writeFileSync(file('out'), 'old data that is longer');
    const b = await DurableOutput.open(file('out'), undefined, { force: true });
    await b.append('new');
    await b.close();
    expect(readFileSync(file('out'), 'utf8')).toBe('new');
  });

  it('appending keeps what the file holds', async () => {
    writeFileSync(file('events'), 'one\n');
    const handle = await openAppendOutput(file('events'));
    await handle.write('two\n');
    await handle.close();
    expect(readFileSync(file('events'), 'utf8')).toBe('one\ntwo\n');
  });
});

describe('directories are refused by name; devices are streams', () => {
  it('refuses a directory as output and as state file, naming the path', async () => {
    mkdirSync(file('adir'));
    await expect(openOutput(file('adir'))).rejects.toThrow(`${file('adir')} is a directory, not a file`);
    await expect(openAppendOutput(file('adir'))).rejects.toThrow(/is a directory/);
    await expect(checkStatePath(file('adir'))).rejects.toThrow(
      `state file ${file('adir')} is a directory, not a file`,
    );
    await expect(checkStatePath('/dev/null')).rejects.toThrow(/not a regular file/);
    await expect(checkStatePath(file('none'))).resolves.toBeUndefined();
  });

  it('writes a character device as a stream: no truncation, no fsync, no resume', async () => {
    const out = await DurableOutput.open('/dev/null');
    expect(out.seekable).toBe(false);
    await out.append('x'.repeat(100_000));
    await expect(out.sync()).resolves.toBe(100_000);
    await out.close();
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    await expect(DurableOutput.open('/dev/null', 0)).rejects.toThrow(/cannot resume \/dev\/null/);
  });

  it('a full device fails the write with one line naming the file and ENOSPC', async () => {
    const out = await DurableOutput.open('/dev/full');
    await out.append('data\n');
    const error = await out.sync().catch((e: unknown) => e);
    await out.close().catch(() => {});
    expect(error).toBeInstanceOf(SvcError);
    expect((error as SvcError).message).toBe('cannot write /dev/full: no space left on device (ENOSPC)');
    expect((error as SvcError).code).toBe('io');
  });
});

describe('appends are written in order, small ones gathered, size counting bytes', () => {
  it('text of any characters and byte chunks, small and large, come out as appended', async () => {
    const out = await DurableOutput.open(file('gathered.txt'));
    const expected: Buffer[] = [];
    // A byte chunk may be reused once its append settled: refilled after each.
    const reused = new Uint8Array(300);
    let bytes = 0;
    for (let i = 0; i < 400; i++) {
      const parts: Array<string | Uint8Array> = [`${i} äöü € 😀 ${'x'.repeat(i * 7)}\n`];
      if (i % 50 === 0) parts.push(new Uint8Array(i * 1000).fill(65), 'y'.repeat(70_000), reused.fill(66));
      for (const part of parts) {
        expected.push(Buffer.from(part));
        await out.append(part);
        bytes += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
        expect(out.size).toBe(bytes);
      }
      reused.fill(0);
    }
    await out.close();
    expect(readFileSync(file('gathered.txt')).equals(Buffer.concat(expected))).toBe(true);
  });
});
