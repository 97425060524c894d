import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeCsv } from '../helpers/batch-data.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { runBin } from '../helpers/run-bin.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const env = () => ({ SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' });
let dir: string;
const file = (name: string) => join(dir, name);
const ROWS = 2000;
const { text, kinds } = makeCsv(ROWS);
/** Rows the pre-check lets through (every 33rd is structurally bad and never sent). */
const SENDABLE = kinds.filter((k) => k !== 'structural').length;

beforeAll(() => ensureBuilt());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-rate-'));
  writeFileSync(file('in.csv'), text);
});

/** `svc batch in.csv --out out.ndjson` with 200-row chunks (10 requests at 2/s: seconds, not minutes). */
const batch = (...extra: string[]) =>
  runBin(['batch', file('in.csv'), '--out', file('out.ndjson'), '--chunk-size', '200', ...extra], {
    env: env(),
  });

function statuses(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of readFileSync(file('out.ndjson'), 'utf8').trim().split('\n')) {
    const { status } = JSON.parse(line) as { status: string };
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

function expectEverySendableRowOnce(): void {
  expect(statuses()).toEqual({ submitted: SENDABLE, rejected: ROWS - SENDABLE });
  const stats = server().admin.stats();
  expect(stats.validationsProcessed).toBe(SENDABLE);
  expect(stats.idempotentReplays).toBe(0);
}

describe('a batch that meets 429s slows down and ends with every row submitted, none validated twice', () => {
  it('a limiter of 2 requests/s with Retry-After', async () => {
    server().admin.setRateLimit({ perSecond: 2, retryAfter: true });
    const run = await batch();
    expect(run.stderr).not.toMatch(/failed [1-9]/);
    expect(run.code).toBe(0);
    expect(server().admin.stats().rateLimited).toBeGreaterThan(0);
    expectEverySendableRowOnce();
  }, 30_000);

  it('a limiter of 2 requests/s without Retry-After', async () => {
    server().admin.setRateLimit({ perSecond: 2, retryAfter: false });
    const run = await batch();
    expect(run.code).toBe(0);
    expect(server().admin.stats().rateLimited).toBeGreaterThan(0);
    expectEverySendableRowOnce();
  }, 30_000);

  it('30 % of the requests answered 429 (half with Retry-After: 1)', async () => {
    server().admin.setFaults({ rate: 0.3, kinds: ['status429'], seed: 41 });
    const run = await batch('--chunk-size', '100');
    expect(run.code).toBe(0);
    expect((server().admin.stats().faultsInjected as Record<string, number>).status429).toBeGreaterThan(3);
    expectEverySendableRowOnce();
  }, 30_000);
});
