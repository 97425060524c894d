import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeCsv } from '../helpers/batch-data.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();

describe('under a 20 % fault rate every row is still processed exactly once', () => {
  it('5,000 rows through resets, 500, 503, 429, truncated and slow responses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-faults-'));
    const { text, kinds } = makeCsv(5000);
    writeFileSync(join(dir, 'in.csv'), text);
    server().admin.setFaults({
      rate: 0.2,
      kinds: ['reset', 'status500', 'status503', 'status429', 'truncate', 'slow'],
      seed: 20261122,
      slowMs: 400,
    });
    const run = await runSvc(
      [
        '--timeout',
        '200',
        '--max-retries',
        '10',
        'batch',
        join(dir, 'in.csv'),
        '--out',
        join(dir, 'out.ndjson'),
        '--chunk-size',
        '100',
      ],
      // Backoff waits are real here but short: the faults' Retry-After is honoured, capped by the client.
      { env: { SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' } },
    );
    const injected = server().admin.stats().faultsInjected as Record<string, number>;
    server().admin.setFaults(undefined);
    expect(run.stderr).not.toMatch(/failed|error/i);
    expect(run.code).toBe(0);
    expect(Object.values(injected).reduce((a, b) => a + b, 0)).toBeGreaterThan(5);
    expect(server().admin.stats().validationsProcessed).toBe(kinds.filter((k) => k !== 'structural').length);
    const rows = readFileSync(join(dir, 'out.ndjson'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(5000);
    expect(rows.filter((r) => r.includes('"failed"'))).toHaveLength(0);
  }, 60_000);
});
