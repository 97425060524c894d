import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { waitingText } from '../../src/cli/handlers/batch-progress.js';
import { makeCsv } from '../helpers/batch-data.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const env = () => ({ SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-wait-'));
  server().admin.configureWebhookRetries({ retryDelaysMs: [0] });
});
const file = (name: string) => join(dir, name);
const sendable = (n: number) => makeCsv(n).kinds.filter((k) => k !== 'structural').length;

function waitArgs(extra: string[] = []) {
  return [
    'batch',
    file('in.csv'),
    '--out',
    file('out.ndjson'),
    '--wait',
    '--register',
    server().url,
    ...extra,
  ];
}

describe('svc batch --wait reconciles the rows whose completion never came', () => {
  it('every event lost, --reconcile-after 0: exit 0, every row answered, each validated once, said on stderr', async () => {
    writeFileSync(file('in.csv'), makeCsv(120).text);
    server().admin.setFaults({ rate: 1, kinds: ['webhookLost'], seed: 1 });
    const run = await runSvc(waitArgs(['--reconcile-after', '0']), { env: env() });
    expect(run.stderr).toMatch(
      /asking the service about \d+ row\(s\) without an outcome \(no completion for 0 s\)/,
    );
    expect(run.stderr).toMatch(/waiting for \d+ completion\(s\), at most 300 s/);
    expect(run.code).toBe(0);
    const rows = readFileSync(file('out.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(rows).toHaveLength(120);
    expect(rows.filter((r) => r.status === 'completed')).toHaveLength(sendable(120));
    expect(server().admin.stats().validationsProcessed).toBe(sendable(120));
  });

  it('--reconcile-after must be a whole number of seconds from 0', async () => {
    writeFileSync(file('in.csv'), makeCsv(3).text);
    for (const bad of ['-1', 'soon', '1e3', '86401']) {
      const run = await runSvc(waitArgs(['--reconcile-after', bad]), { env: env() });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--reconcile-after/);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('the waiting phase shows progress: a line per 10 % of the awaited rows when not on a terminal', () => {
  it('at most ten lines, rising, the last at 100 %', async () => {
    writeFileSync(file('in.csv'), makeCsv(300).text);
    // Half the events lost, so outcomes keep arriving during the wait (through reconciliation).
    server().admin.setFaults({ rate: 0.5, kinds: ['webhookLost'], seed: 4 });
    const run = await runSvc(waitArgs(['--reconcile-after', '0']), { env: env() });
    expect(run.code).toBe(0);
    const waiting = run.stderr.split('\n').filter((l) => l.startsWith('waiting: '));
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.length).toBeLessThanOrEqual(10);
    const percents = waiting.map((l) => Number(/\((\d+) %\)/.exec(l)?.[1]));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
  });

  it('the text: done of awaited, percent, rate and ETA', () => {
    expect(waitingText({ type: 'outcomes', done: 4000, awaited: 10_000, perSecond: 1000 })).toBe(
      'waiting: 4,000 / 10,000 outcomes (40 %), 1,000/s, ETA 0:06',
    );
    expect(waitingText({ type: 'outcomes', done: 0, awaited: 0, perSecond: 0 })).toBe(
      'waiting: 0 / 0 outcomes (100 %), 0/s',
    );
  });
});

describe('a --wait run with nothing left to wait for says nothing about waiting', () => {
  it('every row refused locally: no "waiting for 0 completion(s)" line', async () => {
    writeFileSync(file('in.csv'), 'countryCode,rawValue\nDE,12345\nDE,1\n');
    const run = await runSvc(waitArgs(), { env: env() });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/waiting for/);
    expect(run.stderr).toMatch(/^batch: 2 rows/m);
  });
});
