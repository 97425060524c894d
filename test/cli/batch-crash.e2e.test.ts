import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeCsv, rowsOf } from '../helpers/batch-data.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
beforeAll(() => ensureBuilt());

describe('a batch killed with SIGKILL resumes with every row processed exactly once', () => {
  // Seeded kill points: after this many validations the process is killed.
  it.each([60, 150, 420, 610, 777])('killed after %i validations, then --resume', async (killAfter) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    const input = join(dir, 'in.csv');
    const out = join(dir, 'out.ndjson');
    const { text, kinds } = makeCsv(1000);
    writeFileSync(input, text);
    const env = { SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' };
    const args = ['batch', input, '--out', out, '--chunk-size', '25', '--concurrency', '2'];

    const child = spawnSvc(args, env);
    while (server().admin.stats().validationsProcessed < killAfter && child.exitCode === null) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    child.kill('SIGKILL');
    expect(await exited(child)).toBe('SIGKILL');

    const resumed = spawnSvc([...args, '--resume'], env);
    expect(await exited(resumed)).toBe(0);
    const expected = kinds.filter((k) => k !== 'structural').length;
    expect(server().admin.stats().validationsProcessed).toBe(expected);

    // The result equals an uninterrupted run: same rows, same statuses, same request ids (replays).
    const clean = join(dir, 'clean.ndjson');
    const again = spawnSvc(['batch', input, '--out', clean], env);
    expect(await exited(again)).toBe(0);
    expect(server().admin.stats().validationsProcessed).toBe(expected);
    expect(rowsOf(out)).toEqual(rowsOf(clean));
  });
});
