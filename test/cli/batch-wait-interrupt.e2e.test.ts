import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeCsv } from '../helpers/batch-data.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
beforeAll(() => ensureBuilt(), 300_000);

describe('Ctrl-C during a --wait run, then --resume: every row answered, nothing validated twice', () => {
  it('SIGINT at about 25 % of the rows: exit 75; --resume --wait exits 0 with every row answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-wait-int-'));
    const input = join(dir, 'in.csv');
    const out = join(dir, 'out.ndjson');
    const { text, kinds } = makeCsv(2000);
    writeFileSync(input, text);
    const sendable = kinds.filter((k) => k !== 'structural').length;
    server().admin.configureWebhookRetries({ retryDelaysMs: [0] });
    server().admin.setFaults({ rate: 0.2, kinds: ['webhookLost', 'webhookStatus500'], seed: 9 });
    const env = { SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' };
    const args = [
      'batch',
      input,
      '--out',
      out,
      '--wait',
      '--register',
      server().url,
      '--reconcile-after',
      '1',
    ];

    const child = spawnSvc([...args, '--chunk-size', '20', '--concurrency', '1'], env);
    while (server().admin.stats().validationsProcessed < sendable / 4 && child.exitCode === null) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    child.kill('SIGINT');
    expect(await exited(child)).toBe(75);
    expect(child.output().stderr).toMatch(/run again with --resume/);
    const before = server().admin.stats().validationsProcessed;
    expect(before).toBeLessThan(sendable);

    const resumed = spawnSvc([...args, '--resume'], env);
    const code = await exited(resumed);
    expect(resumed.output().stderr).toMatch(
      /asking the service about \d+ row\(s\) without an outcome \(their completions went to the interrupted run\)/,
    );
    expect(code).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { row: number; status: string });
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(rows.filter((r) => r.status === 'completed')).toHaveLength(sendable);
    expect(rows.filter((r) => r.status === 'rejected')).toHaveLength(2000 - sendable);
    expect(server().admin.stats().validationsProcessed).toBe(sendable);
  }, 300_000);
});
