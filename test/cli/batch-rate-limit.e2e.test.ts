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
    // 20 requests, 4 at once: retried alone, 4 retries meet a bucket that holds 2 each time.
    const run = await batch('--chunk-size', '100');
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

/** The command the summary line names to retry the failed rows, as words (none is quoted here). */
function retryCommand(stderr: string): { count: number; args: string[] } {
  const match = /; (\d+) failed rows? can be retried: svc (.*)$/m.exec(stderr);
  if (!match) throw new Error(`no retry command in: ${stderr}`);
  return { count: Number(match[1]), args: (match[2] as string).split(' ') };
}

describe('rows left failed for a retryable cause are sent again by --resume, with their original keys', () => {
  it('--max-retries 0 against the limiter leaves 429 rows; the command the summary names submits each once', async () => {
    server().admin.setRateLimit({ perSecond: 2, retryAfter: true });
    const first = await runBin(
      ['--max-retries', '0', 'batch', file('in.csv'), '--out', file('out.ndjson'), '--chunk-size', '200'],
      { env: env() },
    );
    expect(first.code).toBe(1);
    const failed = statuses().failed ?? 0;
    expect(failed).toBeGreaterThan(0);
    const { count, args } = retryCommand(first.stderr);
    expect(count).toBe(failed);
    expect(args).toEqual([
      'batch',
      file('in.csv'),
      '--out',
      file('out.ndjson'),
      '--chunk-size',
      '200',
      '--resume',
    ]);
    expect(server().admin.stats().validationsProcessed).toBe(SENDABLE - failed);

    const again = await runBin(args, { env: env() });
    expect(again.stderr).toContain(`sending ${failed} row(s) again`);
    expect(again.stderr).not.toContain('can be retried');
    expect(again.code).toBe(0);
    expectEverySendableRowOnce();
    // Nothing more to send: a third run sends nothing and changes nothing.
    const before = server().admin.stats().requestsByRoute;
    const third = await runBin(args, { env: env() });
    expect(third.code).toBe(0);
    expect(server().admin.stats().requestsByRoute).toEqual(before);
  }, 30_000);

  it('--resume --wait sends them again too, and every row ends completed, validated once', async () => {
    server().admin.configureWebhookRetries({ retryDelaysMs: [0] });
    server().admin.setRateLimit({ perSecond: 2, retryAfter: false });
    const first = await runBin(
      ['--max-retries', '0', 'batch', file('in.csv'), '--out', file('out.ndjson'), '--chunk-size', '200'],
      { env: env() },
    );
    expect(first.code).toBe(1);
    const failed = statuses().failed ?? 0;
    expect(failed).toBeGreaterThan(0);
    server().admin.setRateLimit({ perSecond: 0 });
    const { args } = retryCommand(first.stderr);
    const again = await runBin([...args, '--wait', '--register', server().url], { env: env() });
    expect(again.stderr).toContain(`sending ${failed} row(s) again`);
    expect(again.code).toBe(0);
    const counts = statuses();
    expect(counts.failed).toBeUndefined();
    expect(counts.rejected).toBe(ROWS - SENDABLE);
    expect(server().admin.stats().validationsProcessed).toBe(SENDABLE);
  }, 30_000);

  it('a row refused with 400 is not sent again', async () => {
    writeFileSync(file('in.csv'), makeCsv(40).text);
    server().admin.setFaults({ rate: 1, kinds: ['status500'], seed: 1 });
    const first = await runBin(['--max-retries', '0', 'batch', file('in.csv'), '--out', file('out.ndjson')], {
      env: env(),
    });
    expect(first.code).toBe(1);
    expect(retryCommand(first.stderr).count).toBe(statuses().failed);
    server().admin.setFaults(undefined);
    // The same rows, now failed with a cause a resend cannot fix.
    const lines = readFileSync(file('out.ndjson'), 'utf8').replaceAll('"HTTP_500"', '"HTTP_400"');
    writeFileSync(file('out.ndjson'), lines);
    const again = await runBin(['batch', file('in.csv'), '--out', file('out.ndjson'), '--resume'], {
      env: env(),
    });
    expect(again.code).toBe(1);
    expect(again.stderr).not.toContain('can be retried');
    expect(server().admin.stats().validationsProcessed).toBe(0);
  }, 30_000);
});
