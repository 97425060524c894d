// Audit search: `svc audit search --dir DIR actor.type:API_KEY -o ndjson` over a gzipped folder
// archive (each data file checked against its manifest, the matches printed as archived) vs
// DuckDB's read_ndjson counting the same query over the same files. Both are child processes;
// wall time includes process start.
import { fileURLToPath } from 'node:url';
import { missingCommand } from '../lib/available.js';
import { runNodeOk } from '../lib/child.js';
import { limitRow, ratioRow, unavailableRow, withScratch } from '../lib/rows.js';
import { SVC_BIN, withServer } from '../lib/server.js';
import { interleave, medianOf } from '../lib/stats.js';

const DUCKDB = fileURLToPath(new URL('../baselines/duckdb-search.js', import.meta.url));
const KEY = 'ak_demo_project';
const HOUR = 3600_000;
const RSS_LIMIT_MB = 150;
const MIN_RATIO = 0.5;
const QUERY = 'actor.type:API_KEY';

export const name = 'audit-search';

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const count = quick ? 50_000 : 1_000_000;
  const rounds = quick ? 1 : 3;
  const scenario = `audit search ${count.toLocaleString('en-US')} archived events (gzip, folder), ${QUERY}`;
  const missing = await missingCommand(['audit', 'search'], ['--dir']);
  if (missing) {
    return {
      rows: [unavailableRow(`${scenario}: events/s`, `>= ${MIN_RATIO}x DuckDB`, missing)],
      raw: { missing },
    };
  }
  return withServer({ seedAuditEvents: 0 }, (server) =>
    withScratch(name, async (dir) => {
      const now = Date.now();
      const iso = (ms) => new Date(ms).toISOString();
      const seeded = await server.admin('/audit-events', {
        count,
        scope: 'project',
        from: iso(now - 3 * HOUR),
        to: iso(now - 2 * HOUR),
      });
      log(`  seeded ${seeded.added} events`);
      const env = { SVC_BASE_URL: server.url, SVC_API_KEY: KEY };
      await runNodeOk(
        'svc audit sync',
        [SVC_BIN, '-q', 'audit', 'sync', '--dir', dir, '--gzip', '--since', iso(now - 4 * HOUR)],
        { env },
      );
      let expected;
      const results = await interleave(
        rounds,
        {
          ours: async () => {
            const r = await runNodeOk(
              'svc audit search',
              [SVC_BIN, 'audit', 'search', '--dir', dir, QUERY, '-o', 'ndjson'],
              { env },
            );
            const footer = /(\d+) events read, (\d+) matched/.exec(r.stderr);
            if (!footer) throw new Error(`svc audit search printed no footer: ${r.stderr.slice(-200)}`);
            expected ??= Number(footer[2]);
            return {
              eventsPerSec: (Number(footer[1]) * 1000) / r.wallMs,
              wallMs: r.wallMs,
              peakRssMb: r.peakRssMb,
              matched: Number(footer[2]),
            };
          },
          duckdb: async () => {
            const r = await runNodeOk('duckdb read_ndjson', [DUCKDB, dir]);
            const { matched } = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
            return {
              eventsPerSec: (count * 1000) / r.wallMs,
              wallMs: r.wallMs,
              peakRssMb: r.peakRssMb,
              matched,
            };
          },
        },
        log,
      );
      for (const round of [...results.ours, ...results.duckdb])
        if (round.matched !== expected)
          throw new Error(`svc and DuckDB disagree: ${round.matched} against ${expected}`);
      const ours = { name: 'ours', value: medianOf(results.ours, 'eventsPerSec'), unit: 'events/s' };
      const duck = {
        name: 'DuckDB read_ndjson',
        value: medianOf(results.duckdb, 'eventsPerSec'),
        unit: 'events/s',
      };
      const oursRss = { name: 'ours', value: medianOf(results.ours, 'peakRssMb'), unit: 'MB' };
      const duckRss = { name: 'DuckDB', value: medianOf(results.duckdb, 'peakRssMb'), unit: 'MB' };
      return {
        rows: [
          ratioRow({
            scenario: `${scenario}: rate`,
            ours,
            baselines: [duck],
            against: duck,
            min: MIN_RATIO,
            goal: `>= ${MIN_RATIO}x DuckDB`,
            measure: `wall time, medians of ${rounds} round${rounds === 1 ? '' : 's'}`,
          }),
          limitRow({
            scenario: `${scenario}: peak RSS`,
            ours: oursRss,
            baselines: [duckRss],
            below: RSS_LIMIT_MB,
            goal: `< ${RSS_LIMIT_MB} MB`,
            measure: `median of ${rounds} run${rounds === 1 ? '' : 's'}`,
          }),
        ],
        raw: { count, rounds, query: QUERY, results },
      };
    }),
  );
}
