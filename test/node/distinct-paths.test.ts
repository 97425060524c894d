import { linkSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { OutputPathError } from '../../src/core/errors/index.js';
import { checkDistinctPaths } from '../../src/node/fs/distinct-paths.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-distinct-'));
});
const file = (name: string) => join(dir, name);

async function clash(entries: Parameters<typeof checkDistinctPaths>[0]): Promise<OutputPathError> {
  const error = await checkDistinctPaths(entries).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OutputPathError);
  expect((error as OutputPathError).code).toBe('config');
  return error as OutputPathError;
}

describe('inputs and outputs of a run must be distinct files', () => {
  it('accepts distinct paths, existing or not, and skips options not given', async () => {
    writeFileSync(file('in.csv'), 'a\n');
    await expect(
      checkDistinctPaths([
        { name: 'the input', path: file('in.csv') },
        { name: 'the results file', path: file('out.ndjson') },
        { name: 'the rejects file', path: undefined },
        { name: 'the state file', path: file('out.ndjson.state.json') },
      ]),
    ).resolves.toBeUndefined();
  });

  it('refuses the same path, also spelt differently, naming both roles in one line', async () => {
    const error = await clash([
      { name: 'the results file', path: file('f') },
      { name: 'the state file', path: join(dir, 'sub', '..', 'f') },
    ]);
    expect(error.message).toMatch(/^the results file and the state file are the same file/);
    expect(error.message).not.toMatch(/\n/);
    const rel = relative(process.cwd(), file('g'));
    await clash([
      { name: 'a', path: file('g') },
      { name: 'b', path: rel },
    ]);
  });

  it('refuses a hard link and a symlink to the same existing file (same inode)', async () => {
    writeFileSync(file('in.csv'), 'a\n');
    linkSync(file('in.csv'), file('hard.csv'));
    symlinkSync(file('in.csv'), file('soft.csv'));
    await clash([
      { name: 'the input', path: file('in.csv') },
      { name: 'the rejects file', path: file('hard.csv') },
    ]);
    await clash([
      { name: 'the input', path: file('in.csv') },
      { name: 'the results file', path: file('soft.csv') },
    ]);
  });

  it('refuses a new file reached through a symlinked folder', async () => {
    mkdirSync(file('real'));
    symlinkSync(file('real'), file('alias'));
    await clash([
      { name: 'the results file', path: join(file('real'), 'out') },
      { name: 'the state file', path: join(file('alias'), 'out') },
    ]);
  });

  it('refuses a file inside a directory entry', async () => {
    const error = await clash([
      { name: '--dir', path: file('archive'), directory: true },
      { name: '--sign-key', path: join(file('archive'), 'key.pem') },
    ]);
    expect(error.message).toMatch(/--sign-key .* lies inside --dir/);
    await expect(
      checkDistinctPaths([
        { name: '--dir', path: file('archive'), directory: true },
        { name: '--sign-key', path: file('archive-key.pem') },
      ]),
    ).resolves.toBeUndefined();
  });
});

describe('on Windows and macOS, names that differ only in case are one file', () => {
  it('win32 and darwin refuse Results.csv beside results.csv (neither there yet), and a folder spelt otherwise', async () => {
    for (const platform of ['win32', 'darwin'] as const) {
      const error = await checkDistinctPaths(
        [
          { name: '--out', path: file('Results.csv') },
          { name: '--rejects', path: file('results.csv') },
        ],
        { platform },
      ).catch((e: unknown) => e);
      expect(error, platform).toBeInstanceOf(OutputPathError);
      expect((error as Error).message).toMatch(
        /^--out and --rejects are the same file \(.*Results\.csv, .*results\.csv\)/,
      );
      mkdirSync(file('Archive'), { recursive: true });
      const inside = await checkDistinctPaths(
        [
          { name: '--dir', path: file('Archive'), directory: true },
          { name: '--sign-key', path: join(dir, 'archive', 'key.pem') },
        ],
        { platform },
      ).catch((e: unknown) => e);
      expect((inside as Error).message, platform).toMatch(/--sign-key .* lies inside --dir/);
    }
  });

  it('linux tells them apart', async () => {
    await expect(
      checkDistinctPaths(
        [
          { name: '--out', path: file('Results.csv') },
          { name: '--rejects', path: file('results.csv') },
        ],
        { platform: 'linux' },
      ),
    ).resolves.toBeUndefined();
  });
});
