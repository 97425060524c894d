import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-cli.js';
import { runBin } from '../helpers/run-bin.js';
import { useReferenceServer } from '../helpers/server.js';
import { pastRange } from './helpers.js';

const server = useReferenceServer();
const env = () => ({ SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' });
const COUNT = 3000;
let dir: string;
let range: { from: string; to: string };

beforeAll(() => ensureBuilt());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-export-rate-'));
  range = pastRange(server().admin.now());
  server().admin.addAuditEvents({ count: COUNT, ...range });
});

/** `svc [global...] audit export` of the range in 500-event pages (6 requests) to out.ndjson. */
const exportArgs = (global: string[] = [], extra: string[] = []) => [
  ...global,
  'audit',
  'export',
  '--from',
  range.from,
  '--to',
  range.to,
  '--page-size',
  '500',
  '--out',
  join(dir, 'out.ndjson'),
  ...extra,
];

/** Every event of the range in the output, each once. */
function expectEveryEventOnce(): void {
  const ids = readFileSync(join(dir, 'out.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { id: string }).id);
  expect(ids).toHaveLength(COUNT);
  expect(new Set(ids).size).toBe(COUNT);
}

describe('an export against a limiter without Retry-After keeps retrying 429s with growing waits, within --retry-for', () => {
  it('finishes within the default bound (2 minutes), every event once', async () => {
    server().admin.setRateLimit({ perSecond: 1, burst: 1, retryAfter: false });
    const run = await runBin(exportArgs(), { env: env() });
    expect(run.stderr).toMatch(new RegExp(`^exported ${COUNT} events`, 'm'));
    expect(run.code).toBe(0);
    expect(server().admin.stats().rateLimited).toBeGreaterThan(0);
    expectEveryEventOnce();
  }, 30_000);

  it('a bound too small for the limiter: exit 1, the line says what was kept and the command that continues; running it finishes with no event twice', async () => {
    server().admin.setRateLimit({ perSecond: 1, burst: 1, retryAfter: false });
    // --max-retries 0: nothing is retried, the smallest bound there is (a global option: not repeated).
    const run = await runBin(exportArgs(['--max-retries', '0']), { env: env() });
    expect(run.code).toBe(1);
    const line = run.stderr.trim().split('\n').at(-1) as string;
    const match =
      /429 Too Many Requests: .*; (\d+) events kept in (\S+), state in (\S+); the same command continues from there: svc (.*)$/.exec(
        line,
      );
    expect(match, line).not.toBeNull();
    const [, kept, out, state, command] = match as unknown as string[];
    expect(Number(kept)).toBeGreaterThan(0);
    expect(Number(kept)).toBeLessThan(COUNT);
    expect(out).toBe(join(dir, 'out.ndjson'));
    expect(state).toBe(join(dir, 'out.ndjson.state.json'));
    expect(command).toBe(exportArgs().join(' '));

    // The limiter stays: the continuing command (default --max-retries) waits it out.
    const again = await runBin((command as string).split(' '), { env: env() });
    expect(again.stderr).toMatch(new RegExp(`^exported ${COUNT} events \\(resumed\\)`, 'm'));
    expect(again.code).toBe(0);
    expectEveryEventOnce();
  }, 30_000);
});

describe('audit sync and audit list that give up say what was kept and the command that continues', () => {
  it('sync: exit 1 naming the work folder and the command; that command finishes the run, every event once', async () => {
    server().admin.setRateLimit({ perSecond: 1, burst: 1, retryAfter: false });
    const archive = join(dir, 'archive');
    // In the order the command defines its options: the order the continuing command names them.
    const args = [
      'audit',
      'sync',
      '--dir',
      archive,
      '--since',
      range.from,
      '--lag',
      '0',
      '--page-size',
      '500',
    ];
    const run = await runBin(['--max-retries', '0', ...args], { env: env() });
    expect(run.code).toBe(1);
    const line = run.stderr.trim().split('\n').at(-1) as string;
    expect(line).toMatch(/^svc: 429 Too Many Requests: GET \/platform\/v1\/events/);
    expect(line).toContain(
      `; the events fetched so far are kept in the run's work folder with its state; the same command continues the run: svc ${args.join(' ')}`,
    );
    const again = await runBin(args, { env: env() });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`^run 1 \\(resumed\\): ${COUNT} events to `, 'm'));
    expect((await runBin(['audit', 'verify', archive], { env: env() })).code).toBe(0);
  }, 30_000);

  it('list: exit 1, nothing printed, the command that asks again', async () => {
    // One request per 20 s: the first list takes it, the second (a process start later) meets the limit.
    server().admin.setRateLimit({ perSecond: 0.05, burst: 1, retryAfter: false });
    const args = ['audit', 'list', '--from', range.from, '--to', range.to];
    await runBin(args, { env: env() });
    const run = await runBin(['--max-retries', '0', ...args], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toMatch(
      new RegExp(`^svc: 429 Too Many Requests: .*; nothing printed; ask again with: svc ${args.join(' ')}$`),
    );
  }, 30_000);

  it('tail: exit 1 and the command that follows again', async () => {
    server().admin.setRateLimit({ perSecond: 0.05, burst: 1, retryAfter: false });
    const args = ['audit', 'tail', '--since', range.from, '--page-size', '500'];
    const run = await runBin(['--max-retries', '0', ...args], { env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^svc: 429 Too Many Requests: .*; no event printed; follow again with: svc ${args.join(' ')}$`,
      ),
    );
  }, 30_000);
});
