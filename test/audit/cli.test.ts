import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { pastRange, readAll, startProxy } from './helpers.js';

const server = useReferenceServer();
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-audit-cli-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const svc = (
  args: string[],
  options: Parameters<typeof runSvc>[1] = {},
  key = 'ak_demo_project',
  url = server().url,
) => runSvc(['--base-url', url, '--api-key', key, ...args], options);
const lines = (text: string) => text.split('\n').filter((l) => l !== '');
const within = (range: { from: string; to: string }) => ['--from', range.from, '--to', range.to];

function seed(count: number): { from: string; to: string } {
  const range = pastRange(server().admin.now());
  server().admin.addAuditEvents({ count, ...range });
  return range;
}

describe('svc audit list: one page as a table, JSON or NDJSON', () => {
  it('prints a table of occurredAt, type, actor and subject, and the paging line on stderr', async () => {
    const range = seed(30);
    const run = await svc(['audit', 'list', ...within(range), '--page-size', '5', '-o', 'table']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/occurredAt.*type.*actor.*subject/);
    expect(run.stdout).toMatch(/AUTOMATION SCHEDULER\/tax-validation-schedules|USER usr_|API_KEY key_/);
    expect(run.stderr).toMatch(/^page 0: 5 of 30 events .*; next page: --cursor \S+\n$/);
  });

  it('prints the page as JSON and the events as NDJSON', async () => {
    const range = seed(12);
    const json = await svc(['audit', 'list', ...within(range), '-o', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ totalElements: 12, nextCursor: null, pageSize: 100 });
    const ndjson = await svc(['audit', 'list', ...within(range), '-o', 'ndjson']);
    expect(lines(ndjson.stdout).map((l) => JSON.parse(l).id)).toEqual(
      (JSON.parse(json.stdout).content as Array<{ id: string }>).map((e) => e.id),
    );
  });
});

describe('svc audit export: every event of the range as NDJSON, with a summary on stderr', () => {
  it('writes exactly the ids of the range, newest first, once each, and removes the finished state', async () => {
    const range = seed(2500);
    const out = join(dir, 'f.ndjson');
    const run = await svc(['audit', 'export', ...within(range), '--out', out]);
    expect(run.code).toBe(0);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/^exported 2500 events in 3 pages, .* to .*f\.ndjson/);
    const wire = await readAll(server().url, { ...range, pageSize: 1000 });
    expect(lines(readFileSync(out, 'utf8')).map((l) => JSON.parse(l).id)).toEqual(
      wire.events.map((e) => e.id),
    );
    expect(existsSync(`${out}.state.json`)).toBe(false);
  });

  it('writes to stdout with --out -, and gzip that gunzips to the same lines', async () => {
    const range = seed(300);
    const stdout = await svc(['audit', 'export', ...within(range), '--out', '-', '--page-size', '100']);
    expect(stdout.code).toBe(0);
    expect(lines(stdout.stdout)).toHaveLength(300);
    const gz = join(dir, 'f.ndjson.gz');
    const zipped = await svc([
      'audit',
      'export',
      ...within(range),
      '--out',
      gz,
      '--gzip',
      '--page-size',
      '100',
    ]);
    expect(zipped.code).toBe(0);
    expect(gunzipSync(readFileSync(gz)).toString('utf8')).toBe(stdout.stdout);
  });
});

describe('svc audit export interrupted by a signal exits 75 with the state saved; the same command resumes', () => {
  it('resumes to a file byte-identical to an uninterrupted export', async () => {
    const range = seed(1000);
    const full = join(dir, 'full.ndjson');
    const args = ['audit', 'export', ...within(range), '--page-size', '100'];
    expect((await svc([...args, '--out', full])).code).toBe(0);

    const controller = new AbortController();
    const proxy = await startProxy(server().url, (count) => {
      if (count === 4) {
        controller.abort();
        return 'hold';
      }
    });
    const out = join(dir, 'out.ndjson');
    const state = join(dir, 'out.state');
    try {
      const first = await svc(
        [...args, '--out', out, '--state', state],
        { signal: controller.signal },
        'ak_demo_project',
        proxy.url,
      );
      expect(first.code).toBe(75);
      expect(first.stderr).toBe(
        `interrupted: state saved to ${state}; run the same command again to resume\n`,
      );
    } finally {
      await proxy.close();
    }
    // Request 4 is page 4, asked for early, as soon as page 3's bytes are in: the export stops
    // after the page it is writing when the signal comes, page 2 or page 3.
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    expect(saved).toMatchObject({ complete: false });
    expect([200, 300]).toContain(saved.events);
    const second = await svc([...args, '--out', out, '--state', state]);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/^exported 1000 events \(resumed\)/);
    expect(readFileSync(out).equals(readFileSync(full))).toBe(true);
  });
});

describe('Errors print one clear line and exit non-zero', () => {
  const oneLine = (stderr: string) => {
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).not.toMatch(/\s+at\s/);
    return stderr;
  };

  it('refuses from after to and a non-ISO from before sending (exit 2)', async () => {
    const after = await svc([
      'audit',
      'export',
      '--from',
      '2026-02-01T00:00:00Z',
      '--to',
      '2026-01-01T00:00:00Z',
      '--out',
      join(dir, 'x'),
    ]);
    expect(after.code).toBe(2);
    expect(oneLine(after.stderr)).toMatch(/^svc: --from \(2026-02-01T00:00:00.000Z\) lies after --to/);
    const notIso = await svc(['audit', 'list', '--from', 'yesterday']);
    expect(notIso.code).toBe(2);
    expect(oneLine(notIso.stderr)).toMatch(/^svc: --from must be an ISO 8601 timestamp/);
    expect(server().admin.requests()).toEqual([]);
  });

  it('reports the server 422 for a from after the server clock and for a tampered cursor (exit 1)', async () => {
    const future = await svc([
      'audit',
      'list',
      '--from',
      new Date(server().admin.now() + 86_400_000).toISOString(),
    ]);
    expect(future.code).toBe(1);
    expect(oneLine(future.stderr)).toMatch(
      /^svc: 422 Unprocessable Entity: GET \/platform\/v1\/events \(from lies after to: from: must not lie after to\)\n$/,
    );
    const range = seed(150);
    const page = JSON.parse((await svc(['audit', 'list', ...within(range), '-o', 'json'])).stdout);
    const tampered = `${(page.nextCursor as string).slice(0, -2)}xx`;
    const bad = await svc(['audit', 'list', '--cursor', tampered]);
    expect(bad.code).toBe(1);
    expect(oneLine(bad.stderr)).toMatch(
      /^svc: 422 Unprocessable Entity: .*cursor was not returned by this API/,
    );
  });

  it('says the plan lacks the audit log for ak_basic_project (exit 1)', async () => {
    const run = await svc(['audit', 'export', '--out', join(dir, 'b.ndjson')], {}, 'ak_basic_project');
    expect(run.code).toBe(1);
    expect(oneLine(run.stderr)).toMatch(/^svc: 402 Payment Required: .*plan does not include the audit log/);
  });
});

describe('svc audit tail prints events oldest first as NDJSON until stopped', () => {
  it('prints events since --since, oldest first, and stops after --max-polls', async () => {
    const t = server().admin.now();
    server().admin.addAuditEvents({
      count: 40,
      from: new Date(t - 600_000).toISOString(),
      to: new Date(t - 1000).toISOString(),
    });
    const run = await svc([
      'audit',
      'tail',
      '--since',
      new Date(t - 3_600_000).toISOString(),
      '--interval',
      '1',
      '--max-polls',
      '1',
    ]);
    expect(run.code).toBe(0);
    const events = lines(run.stdout).map((l) => JSON.parse(l) as { id: string; occurredAt: string });
    expect(events).toHaveLength(40);
    expect(new Set(events.map((e) => e.id)).size).toBe(40);
    const times = events.map((e) => Date.parse(e.occurredAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('ends with exit 0 when the signal fires', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await svc(['audit', 'tail', '--interval', '1'], { signal: controller.signal });
    expect(run.code).toBe(0);
  });

  it('refuses a bad --interval', async () => {
    const run = await svc(['audit', 'tail', '--interval', 'soon']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("svc: --interval must be a number of seconds, got 'soon'\n");
  });
});
