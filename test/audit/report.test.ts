import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorsReport } from '../../src/audit/reports/actors.js';
import { apiKeysReport } from '../../src/audit/reports/api-keys.js';
import { changesReport, REDACTED } from '../../src/audit/reports/changes.js';
import { escapeHtml, reportPage } from '../../src/audit/reports/html.js';
import { buildReport } from '../../src/audit/reports/report.js';
import type { AuditEvent } from '../../src/audit/schemas.js';
import { printData } from '../../src/cli/output.js';
import type { SvcClient } from '../../src/client.js';
import { runSvc } from '../helpers/cli.js';
import { everyField, hostileCell, startsFormula } from '../helpers/hostile-cells.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

// `svc audit report` (#43 items 3 and 4): each report equals an oracle computed here from the
// events the API holds; CSV output passes the formula-injection property the batch output passes;
// the page is one file with a bar per day and every row, its strings escaped.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-04T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let dir: string;
let client: SvcClient;
const all: AuditEvent[] = [];

const svc = (...args: string[]) =>
  runSvc([...args, '--base-url', server().url], { env: { SVC_API_KEY: 'ak_demo_project' } });

beforeAll(async () => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-report-'));
  // Three days of events, so the per-day counts have more than one day.
  server().admin.addAuditEvents({
    count: 900,
    scope: 'project',
    from: iso(T0 - 70 * HOUR),
    to: iso(T0 - 2 * HOUR),
  });
  expect((await svc('audit', 'sync', '--dir', dir, '--since', iso(T0 - 72 * HOUR))).code).toBe(0);
  for await (const event of client.audit.events({ from: iso(T0 - 72 * HOUR), to: iso(T0) })) all.push(event);
  expect(all).toHaveLength(900);
}, 60_000);
afterAll(() => dropScratch(dir, client));

/** `svc -o json audit report NAME ...` over the archive: the report object. */
async function report(...args: string[]) {
  const run = await svc('-o', 'json', 'audit', 'report', ...args, '--dir', dir);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as {
    report: {
      columns: string[];
      rows: Array<Array<string | number>>;
      perDay: Array<{ day: string; events: number }>;
      events: number;
    };
    footer: { whole: boolean; events: number };
  };
}

const a = (e: AuditEvent) => e.actor as Record<string, unknown>;
const day = (e: AuditEvent) => e.occurredAt.slice(0, 10);
const byKey = <T>(list: T[], key: (t: T) => string) => {
  const map = new Map<string, T[]>();
  for (const item of list) map.set(key(item), [...(map.get(key(item)) ?? []), item]);
  return map;
};

describe('changes: one row per change, redacted values shown as redacted', () => {
  it('equals the changes of the events, in their order, with (redacted) for secrets', async () => {
    const { report: r, footer } = await report('changes');
    const expected = all.flatMap((e) =>
      (e.changes ?? []).map((c) => [
        e.occurredAt,
        c.field,
        c.isRedacted ? REDACTED : c.before == null ? '' : String(c.before),
        c.isRedacted ? REDACTED : c.after == null ? '' : String(c.after),
      ]),
    );
    const got = r.rows.map((row) => [row[0], row[4], row[5], row[6]]);
    expect(got.sort()).toEqual(expected.sort());
    expect(got.some((row) => row[2] === REDACTED)).toBe(true);
    expect(r.events).toBe(all.filter((e) => (e.changes ?? []).length > 0).length);
    expect(footer.whole).toBe(true);
  });
});

describe('sign-ins: succeeded and failed per day, masked IP and user', () => {
  it('equals the counts of authenticated and authentication-failed events', async () => {
    const { report: r } = await report('sign-ins');
    const signIns = all.filter((e) => e.action === 'authenticated' || e.action === 'authentication-failed');
    const groups = byKey(signIns, (e) => JSON.stringify([day(e), e.details?.ipAddress, e.subject?.id]));
    const expected = [...groups.entries()].map(([key, events]) => [
      ...(JSON.parse(key) as string[]),
      events.filter((e) => e.action === 'authenticated').length,
      events.filter((e) => e.action === 'authentication-failed').length,
    ]);
    expect([...r.rows].sort()).toEqual(expected.sort());
    expect(new Set(r.rows.map((row) => row[1])).size).toBeGreaterThan(1);
    expect(r.perDay.map((d) => d.day)).toEqual([...new Set(signIns.map(day))].sort());
  });
});

describe('api-keys: first and last seen, count and types per API key', () => {
  it('equals the events of API_KEY actors', async () => {
    const { report: r } = await report('api-keys');
    const keys = byKey(
      all.filter((e) => e.actor.type === 'API_KEY'),
      (e) => String(a(e).apiKeyId),
    );
    expect(r.rows.map((row) => row[0]).sort()).toEqual([...keys.keys()].sort());
    for (const row of r.rows) {
      const events = keys.get(String(row[0])) ?? [];
      const times = events.map((e) => e.occurredAt).sort();
      expect(row.slice(1, 4)).toEqual([times[0], times.at(-1), events.length]);
    }
  });
});

describe('timeline SUBJECT: everything about one resource, oldest first', () => {
  it('the events whose subject is that id or label, in time order', async () => {
    const { report: r } = await report('timeline', 'Demo captcha');
    const expected = all
      .filter((e) => e.subject?.label === 'Demo captcha' || e.subject?.id === 'Demo captcha')
      .sort((x, y) => Date.parse(x.occurredAt) - Date.parse(y.occurredAt) || (x.id < y.id ? -1 : 1))
      .map((e) => e.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(r.rows.map((row) => row[4])).toEqual(expected);
  });
  it('without a subject: exit 2, one line', async () => {
    const run = await svc('audit', 'report', 'timeline', '--dir', dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/timeline needs the subject/);
  });
});

describe('actors: activity per actor type and actor, schemaVersion 1 events included', () => {
  it('equals the events per actor, every actor type present', async () => {
    const { report: r } = await report('actors');
    const id = (e: AuditEvent) =>
      String(a(e).userId ?? a(e).apiKeyId ?? (a(e).automation as { name?: string } | null)?.name ?? '');
    const groups = byKey(all, (e) => JSON.stringify([e.actor.type, id(e)]));
    expect(r.rows.map((row) => JSON.stringify([row[0], row[1]])).sort()).toEqual([...groups.keys()].sort());
    for (const row of r.rows) expect(row[2]).toBe(groups.get(JSON.stringify([row[0], row[1]]))?.length);
    expect(new Set(r.rows.map((row) => row[0]))).toEqual(
      new Set(['USER', 'API_KEY', 'AUTOMATION', 'ANONYMOUS', 'SYSTEM']),
    );
    expect(all.some((e) => e.schemaVersion === 1)).toBe(true);
    expect(r.events).toBe(all.length);
  });
});

describe('reports take the search qualifiers as filters', () => {
  it('actors of API keys only, in one day', async () => {
    const first = day(all[0] as AuditEvent);
    const { report: r } = await report('actors', 'actor.type:API_KEY', `occurred:${first}`);
    expect(new Set(r.rows.map((row) => row[0]))).toEqual(new Set(['API_KEY']));
    expect(r.events).toBe(all.filter((e) => e.actor.type === 'API_KEY' && day(e) === first).length);
  });
  it('an unknown report: exit 2 naming the reports', async () => {
    const run = await svc('audit', 'report', 'weekly', '--dir', dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /no report 'weekly': the reports are changes, sign-ins, api-keys, timeline, actors/,
    );
  });
});

describe('CSV of a report never lets a formula start a field (the property batch output passes)', () => {
  const hostileEvent = fc.record({
    label: hostileCell,
    field: hostileCell,
    before: hostileCell,
    after: hostileCell,
    key: hostileCell,
  });
  it('changes and api-keys of events carrying hostile strings, with , ; and tab', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileEvent, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(',', ';', '\t'),
        async (list, delimiter) => {
          const events = list.map((h, i) => ({
            id: `e${i}`,
            schemaVersion: 2,
            occurredAt: iso(T0 + i),
            type: `${h.label}.updated`,
            action: 'updated',
            subject: { kind: 'captcha.captcha', id: h.label, label: h.label },
            actor: { type: 'API_KEY', apiKeyId: h.key },
            changes: [{ field: h.field, operation: 'SET', before: h.before, after: h.after }],
          })) as unknown as AuditEvent[];
          for (const builder of [changesReport(), apiKeysReport(), actorsReport()]) {
            const r = await buildReport(builder, events);
            const chunks: string[] = [];
            const sink = new Writable({
              write(chunk: Buffer, _encoding, done) {
                chunks.push(chunk.toString('utf8'));
                done();
              },
            });
            await printData(sink, 'csv', r.rows, () => ({ head: r.columns, rows: r.rows }), {
              csv: { delimiter, bom: false },
            });
            const text = chunks.join('');
            expect(everyField(text).filter(startsFormula)).toEqual([]);
          }
        },
      ),
      { numRuns: 300, seed: 43 },
    );
  });
});

describe('--html writes one self-contained page: a bar per day, every row, what was read', () => {
  it('a page with no script and no URL to fetch, its strings escaped; refused over an existing file without --force', async () => {
    const page = join(dir, '..', `sign-ins-${Date.now()}.html`);
    try {
      const run = await svc('audit', 'report', 'sign-ins', '--dir', dir, '--html', page);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/wrote .*: \d+ rows, \d+ events counted/);
      const html = readFileSync(page, 'utf8');
      const { report: r } = await report('sign-ins');
      expect(html.match(/<rect class="bar"/g)).toHaveLength(r.perDay.length);
      expect(html.match(/<tr><td>/g)).toHaveLength(r.rows.length);
      expect(html).not.toMatch(/<script|https?:\/\/|src=|href=/i);
      expect(html).toMatch(/Content-Security-Policy" content="default-src 'none'/);
      expect(html).toMatch(/read .*: head manifest-000001\.json sha256:[0-9a-f]{64}/);
      const again = await svc('audit', 'report', 'sign-ins', '--dir', dir, '--html', page);
      expect(again.code).toBe(2);
      expect((await svc('audit', 'report', 'sign-ins', '--dir', dir, '--html', page, '--force')).code).toBe(
        0,
      );
    } finally {
      if (existsSync(page)) rmSync(page);
    }
  });
  it('a hostile label becomes text', () => {
    const html = reportPage(
      {
        name: 'x',
        title: '<img src=x onerror=alert(1)>',
        columns: ['a"b'],
        rows: [['</td><script>alert(1)</script>']],
        perDay: [{ day: '2026-01-01', events: 1 }],
        events: 1,
      },
      { lines: ['<b>'], whole: false },
      'now',
    );
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain(escapeHtml('</td><script>alert(1)</script>'));
    expect(html).toMatch(/class="warn"/);
  });
});
