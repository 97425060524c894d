import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-cli.js';
import { lines, runBin } from '../helpers/run-bin.js';
import { rawRequest } from '../helpers/server.js';
import { type SlowLink, startSlowLink, type ThrottleOptions } from '../helpers/throttle-relay.js';

// `--timeout` bounds silence, not the download: through a slow but steady link a page far larger
// than the timeout allows at that rate still arrives, and a link that stops is cut after about
// the timeout. The relay (test/helpers/throttle-relay.ts) is the link, in front of the server.

const links: SlowLink[] = [];
let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'svc-slow-link-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(links.splice(0).map((link) => link.close()));
});

/**
 * A reference server behind a link of `options`, seeded with 1000 events through the admin API
 * (about 718 bytes each on the wire: one 700 KB page of 1000).
 */
async function link(options: ThrottleOptions): Promise<SlowLink> {
  const started = await startSlowLink(options);
  links.push(started);
  const added = await rawRequest(started.server.url, 'POST', '/__admin/audit-events', {
    body: { count: 1000 },
  });
  expect(added.status).toBe(201);
  return started;
}

const env = { SVC_API_KEY: 'ak_demo_project', XDG_CONFIG_HOME: '/nonexistent-svc-test' };

describe('--timeout bounds each silence, not the download: a 700 KB page through a 100 KB/s link with --timeout 3000 is written whole', () => {
  it('exports every event (the page takes about 7 s, more than twice the timeout)', async () => {
    const slow = await link({ bytesPerSecond: 100_000 });
    const out = join(dir, 'slow.ndjson');
    const started = performance.now();
    const run = await runBin(
      ['--base-url', slow.url, '--timeout', '3000', 'audit', 'export', '--page-size', '1000', '--out', out],
      { env },
    );
    const tookMs = performance.now() - started;
    expect(run.code, run.stderr).toBe(0);
    const events = lines(readFileSync(out, 'utf8')).map((line) => JSON.parse(line) as { id: string });
    expect(events).toHaveLength(1000);
    expect(new Set(events.map((e) => e.id)).size).toBe(1000);
    // The link did carry the page slowly: at least the 700 KB at 100 KB/s.
    expect(slow.relay.forwarded).toBeGreaterThan(700_000);
    expect(tookMs).toBeGreaterThan(6500);
  }, 60_000);
});

describe('a link that goes silent mid-body is cut after about --timeout, with a line naming the silence, the attempts and the flags', () => {
  it('exit 1 about 1 s after the last byte; "No data for 1000 ms while reading the response ... (1 attempt)"', async () => {
    // 200 KB of the 700 KB page, then nothing: the connection stays open.
    const slow = await link({ bytesPerSecond: 2_000_000, silentAfter: 200_000 });
    const run = await runBin(
      [
        '--base-url',
        slow.url,
        '--timeout',
        '1000',
        '--max-retries',
        '0',
        'audit',
        'export',
        '--page-size',
        '1000',
        '--out',
        join(dir, 'stalled.ndjson'),
      ],
      { env },
    );
    expect(run.code).toBe(1);
    const out = join(dir, 'stalled.ndjson');
    expect(lines(run.stderr)).toEqual([
      'svc: No data for 1000 ms while reading the response: GET /platform/v1/events (1 attempt); ' +
        `0 events kept in ${out}, state in ${out}.state.json; the same command continues from there: ` +
        `svc --base-url ${slow.url} --timeout 1000 audit export --page-size 1000 --out ${out}; ` +
        'allow longer silence with --timeout <ms> or more attempts with --max-retries <n>',
    ]);
    // Measured at the link: from its last byte to the client dropping the connection.
    const silentSince = slow.relay.silentSince as number;
    const cutAfter = (slow.relay.lastClientClose as number) - silentSince;
    expect(cutAfter).toBeGreaterThanOrEqual(950);
    expect(cutAfter).toBeLessThan(3000);
  }, 60_000);

  // audit list reads through undici (export through node:http). The link stays silent, so the
  // retry hears no answer at all: the line names what the last attempt met and counts both.
  it('the line counts every attempt: audit list with --max-retries 1', async () => {
    const slow = await link({ bytesPerSecond: 2_000_000, silentAfter: 200_000 });
    const run = await runBin(
      [
        '--base-url',
        slow.url,
        '--timeout',
        '500',
        '--max-retries',
        '1',
        'audit',
        'list',
        '--page-size',
        '1000',
      ],
      { env },
    );
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      'svc: No answer for 500 ms: GET /platform/v1/events (2 attempts); ' +
        `nothing printed; ask again with: svc --base-url ${slow.url} --timeout 500 audit list --page-size 1000; ` +
        'allow longer silence with --timeout <ms> or more attempts with --max-retries <n>',
    ]);
  }, 60_000);
});

describe('--deadline bounds one request with its retries, however steady the body', () => {
  it('a 700 KB page at 100 KB/s with --deadline 1500: "Deadline of 1500 ms passed" and the flag that helps', async () => {
    const slow = await link({ bytesPerSecond: 100_000 });
    const started = performance.now();
    const run = await runBin(
      [
        '--base-url',
        slow.url,
        '--timeout',
        '3000',
        '--deadline',
        '1500',
        'audit',
        'export',
        '--page-size',
        '1000',
        '--out',
        join(dir, 'deadline.ndjson'),
      ],
      { env },
    );
    expect(performance.now() - started).toBeLessThan(6000);
    expect(run.code).toBe(1);
    const out = join(dir, 'deadline.ndjson');
    expect(lines(run.stderr)).toEqual([
      'svc: Deadline of 1500 ms passed: GET /platform/v1/events (1 attempt); ' +
        `0 events kept in ${out}, state in ${out}.state.json; the same command continues from there: ` +
        `svc --base-url ${slow.url} --timeout 3000 --deadline 1500 audit export --page-size 1000 --out ${out}; ` +
        'allow more time with --deadline <ms>',
    ]);
  }, 60_000);

  it('SVC_DEADLINE sets it when no flag does', async () => {
    const slow = await link({ bytesPerSecond: 100_000 });
    const run = await runBin(['--base-url', slow.url, 'audit', 'list', '--page-size', '1000'], {
      env: { ...env, SVC_DEADLINE: '1000' },
    });
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([
      'svc: Deadline of 1000 ms passed: GET /platform/v1/events (1 attempt); ' +
        `nothing printed; ask again with: svc --base-url ${slow.url} audit list --page-size 1000; ` +
        'allow more time with --deadline <ms>',
    ]);
  }, 60_000);
});
