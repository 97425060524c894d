import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SvcClient } from '../../src/client.js';
import { ROOT } from '../helpers/build.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { archiveScratch, dropScratch, HOUR } from './helpers.js';

// #43 item 5: the DuckDB SQL of docs/audit-reports.md, run as documented over an archive that
// `svc audit sync` wrote (one plain and one gzipped run), gives the counts svc gives.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-06T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let dir: string;
let client: SvcClient;

const svc = (...args: string[]) =>
  runSvc([...args, '--base-url', server().url], { env: { SVC_API_KEY: 'ak_demo_project' } });

/** The ```sql blocks of the docs whose first line is `-- duckdb: WHAT`, by WHAT. */
function documentedSql(): Map<string, string> {
  const text = readFileSync(join(ROOT, 'docs', 'audit-reports.md'), 'utf8');
  const blocks = new Map<string, string>();
  for (const [, body] of text.matchAll(/```sql\n([\s\S]*?)```/g)) {
    const first = /^-- duckdb: (.*)\n/.exec(body as string);
    if (first) blocks.set(first[1] as string, body as string);
  }
  return blocks;
}

beforeAll(async () => {
  ({ dir, client } = archiveScratch(server(), T0, 'svc-audit-duckdb-'));
  server().admin.addAuditEvents({
    count: 500,
    scope: 'project',
    from: iso(T0 - 40 * HOUR),
    to: iso(T0 - 2 * HOUR),
  });
  expect((await svc('audit', 'sync', '--dir', dir, '--since', iso(T0 - 48 * HOUR))).code).toBe(0);
  server().admin.advanceClock(12 * HOUR);
  server().admin.addAuditEvents({
    count: 400,
    scope: 'project',
    from: iso(T0 + HOUR),
    to: iso(T0 + 10 * HOUR),
  });
  expect((await svc('audit', 'sync', '--dir', dir, '--gzip')).code).toBe(0);
}, 60_000);
afterAll(() => dropScratch(dir, client));

describe('the documented DuckDB SQL over a synced archive gives what svc gives', () => {
  it('search count, sign-ins, api-keys and changes', async () => {
    const sql = documentedSql();
    expect([...sql.keys()]).toEqual([
      'the events of the archive',
      'svc audit search actor.type:API_KEY (the count)',
      'svc audit report sign-ins',
      'svc audit report api-keys',
      "svc audit report changes (one row per change; a secret's values are never recorded)",
    ]);
    const db = await DuckDBInstance.create(':memory:');
    const duck = await db.connect();
    const run = async (what: string) => {
      const text = (sql.get(what) as string).replaceAll("'audit-archive/", `'${dir}/`);
      return (await duck.runAndReadAll(text)).getRowsJson() as unknown[][];
    };
    const json = async (...args: string[]) => {
      const out = await svc('-o', 'json', 'audit', ...args, '--dir', dir);
      expect(out.code, out.stderr).toBe(0);
      return JSON.parse(out.stdout);
    };
    try {
      await run('the events of the archive');
      const [[count]] = (await run('svc audit search actor.type:API_KEY (the count)')) as [[string]];
      const searched = await json('search', 'actor.type:API_KEY');
      expect(Number(count)).toBe(searched.footer.matched);
      expect(searched.footer.events).toBe(900);

      const signIns = await run('svc audit report sign-ins');
      const report = await json('report', 'sign-ins');
      expect(signIns.map((row) => row.map(String))).toEqual(
        report.report.rows.map((row: unknown[]) => row.map(String)),
      );

      const keys = await run('svc audit report api-keys');
      const keyReport = await json('report', 'api-keys');
      expect(keys.map((row) => row.map(String))).toEqual(
        keyReport.report.rows.map((row: unknown[]) => row.slice(0, 4).map(String)),
      );

      const changes = await run(
        "svc audit report changes (one row per change; a secret's values are never recorded)",
      );
      const changeReport = await json('report', 'changes');
      expect(changes).toHaveLength(changeReport.report.rows.length);
      const fields = (rows: unknown[][], at: number) => rows.map((row) => String(row[at])).sort();
      expect(fields(changes, 2)).toEqual(fields(changeReport.report.rows, 4));
      expect(changes.filter((row) => row[3] === '(redacted)')).toHaveLength(
        changeReport.report.rows.filter((row: unknown[]) => row[5] === '(redacted)').length,
      );
    } finally {
      duck.closeSync();
    }
  });
});
