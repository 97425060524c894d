import { existsSync, linkSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { OutputPathError } from '../../src/core/errors/index.js';
import { type BatchFileOptions, runBatchFile } from '../../src/node/index.js';
import { makeCsv } from '../helpers/batch-data.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let dir: string;
let client: SvcClient;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-paths-'));
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
  writeFileSync(file('in.csv'), makeCsv(20).text);
});
afterEach(() => client.close());
const file = (name: string) => join(dir, name);
const processed = () => server().admin.stats().validationsProcessed;

async function refused(options: BatchFileOptions): Promise<string> {
  const input = readFileSync(file('in.csv'));
  const error = await runBatchFile(client.tax, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OutputPathError);
  expect(processed()).toBe(0);
  expect(readFileSync(file('in.csv')).equals(input)).toBe(true);
  return (error as Error).message;
}

describe('runBatchFile checks every path before a byte is written', () => {
  it('refuses results and state as the same file; nothing is created', async () => {
    const message = await refused({
      input: { path: file('in.csv') },
      output: { path: file('f') },
      resume: { state: file('f') },
    });
    expect(message).toMatch(/results file and the state file are the same file/);
    expect(existsSync(file('f'))).toBe(false);
  });

  it('refuses the input as results or rejects, also through a hard link', async () => {
    await refused({ input: { path: file('in.csv') }, output: { path: file('in.csv') } });
    linkSync(file('in.csv'), file('hard.csv'));
    const message = await refused({
      input: { path: file('in.csv') },
      output: { path: file('o'), rejects: file('hard.csv') },
    });
    expect(message).toMatch(/the input and the rejects file are the same file/);
    expect(existsSync(file('o'))).toBe(false);
  });
});

describe('runBatchFile replaces no file that is not its own unless force', () => {
  it('refuses existing results or rejects with data; force replaces them', async () => {
    writeFileSync(file('out.ndjson'), 'precious\n');
    await refused({ input: { path: file('in.csv') }, output: { path: file('out.ndjson') } });
    expect(readFileSync(file('out.ndjson'), 'utf8')).toBe('precious\n');
    writeFileSync(file('rejects.csv'), 'precious\n');
    await refused({
      input: { path: file('in.csv') },
      output: { path: file('new.ndjson'), rejects: file('rejects.csv') },
    });
    expect(existsSync(file('new.ndjson'))).toBe(false);
    const result = await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson') },
      resume: { force: true },
    });
    expect(result.rowsDone).toBe(20);
    expect(readFileSync(file('out.ndjson'), 'utf8')).not.toMatch(/precious/);
  });

  it('a second run over an existing state is refused, pointing to resume and force', async () => {
    await runBatchFile(client.tax, { input: { path: file('in.csv') }, output: { path: file('out.ndjson') } });
    const first = readFileSync(file('out.ndjson'), 'utf8');
    server().admin.reset();
    const message = await refused({ input: { path: file('in.csv') }, output: { path: file('out.ndjson') } });
    expect(message).toMatch(/state file .*out\.ndjson\.state\.json exists from an earlier run: use --resume/);
    const resumed = await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson') },
      resume: { continue: true },
    });
    expect(resumed.resumed).toBe(true);
    expect(readFileSync(file('out.ndjson'), 'utf8')).toBe(first);
  });
});

describe('runBatchFile creates its files 0600 unless fileMode says otherwise', () => {
  it('results, rejects and state are 0600 by default; fileMode sets results and rejects', async () => {
    await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: file('a.ndjson'), rejects: file('a.csv') },
    });
    for (const name of ['a.ndjson', 'a.csv', 'a.ndjson.state.json'])
      expect(statSync(file(name)).mode & 0o777).toBe(0o600);
    await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: file('b.ndjson'), rejects: file('b.csv'), fileMode: 0o640 },
    });
    expect(statSync(file('b.ndjson')).mode & 0o777).toBe(0o640);
    expect(statSync(file('b.csv')).mode & 0o777).toBe(0o640);
  });
});

describe('a device output is a stream: no state file, no resume', () => {
  it('writes /dev/null without a state; a state or resume with it is refused', async () => {
    const result = await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: '/dev/null' },
    });
    expect(result.rowsDone).toBe(20);
    expect(result.statePath).toBeUndefined();
    server().admin.reset();
    await refused({
      input: { path: file('in.csv') },
      output: { path: '/dev/null' },
      resume: { state: file('s.json') },
    });
    expect(existsSync(file('s.json'))).toBe(false);
  });
});

describe('an output that cannot be written ends the run with its own one-line reason', () => {
  it('/dev/full during the run: "cannot write ... (ENOSPC)", whenever the checkpoint falls', async () => {
    // A checkpoint at every segment puts the failing write inside the run, not after it.
    for (const sync of [{ everySteps: 1 }, { everySteps: Number.POSITIVE_INFINITY, everyMs: 3_600_000 }]) {
      const error = await runBatchFile(client.tax, {
        input: { path: file('in.csv') },
        output: { path: '/dev/full' },
        resume: { sync },
      }).catch((e: unknown) => e);
      expect((error as Error).message).toBe('cannot write /dev/full: no space left on device (ENOSPC)');
      server().admin.reset();
    }
  });
});
