// Audit export: `svc audit export` to a file vs the raw transfer limit (undici walking the same
// pages and streaming the bodies to a file). Both run as child processes; wall time includes
// process start, as a user sees it.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingCommand } from '../lib/available.js';
import { runNodeOk } from '../lib/child.js';
import { limitRow, ratioRow, unavailableRow, withScratch } from '../lib/rows.js';
import { SVC_BIN, withServer } from '../lib/server.js';
import { interleave, medianOf } from '../lib/stats.js';

const RAW = fileURLToPath(new URL('../baselines/raw-audit-export.js', import.meta.url));
const KEY = 'ak_demo_project';
const HOUR = 3600_000;
const PAGE_SIZE = 1000;
const RSS_LIMIT_MB = 120;
const MIN_RATIO = 0.9;

export const name = 'audit-export';

/**
 * The seeded range lies inside the exported range, away from the demo data of `svc serve`.
 * @param {number} now
 */
export function auditRanges(now) {
  const iso = (ms) => new Date(ms).toISOString();
  return {
    seed: { from: iso(now - 3 * HOUR), to: iso(now - 2 * HOUR) },
    export: { from: iso(now - 4 * HOUR), to: iso(now - HOUR) },
  };
}

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const count = quick ? 50_000 : 1_000_000;
  const rounds = quick ? 1 : 3;
  const scenario = `audit export ${count.toLocaleString('en-US')} events, pageSize ${PAGE_SIZE}`;
  const missing = await missingCommand(['audit', 'export'], ['--page-size', '--out', '--from', '--to']);
  if (missing) {
    return {
      rows: [
        unavailableRow(`${scenario}: events/s`, `>= ${MIN_RATIO}x raw; RSS < ${RSS_LIMIT_MB} MB`, missing),
      ],
      raw: { missing },
    };
  }

  return withServer({ seedAuditEvents: 0 }, (server) =>
    withScratch(name, async (dir) => {
      const ranges = auditRanges(Date.now());
      const seeded = await server.admin('/audit-events', { count, scope: 'project', ...ranges.seed });
      log(`  seeded ${seeded.added} events`);
      const { from, to } = ranges.export;
      const env = { SVC_BASE_URL: server.url, SVC_API_KEY: KEY };
      const oursOut = join(dir, 'ours.ndjson');
      const rawOut = join(dir, 'raw.json');

      const results = await interleave(
        rounds,
        {
          ours: async () => {
            rmSync(oursOut, { force: true });
            const args = [SVC_BIN, '-q', 'audit', 'export', '--from', from, '--to', to];
            const r = await runNodeOk(
              'svc audit export',
              [...args, ...['--page-size', String(PAGE_SIZE), '--out', oursOut]],
              { env },
            );
            const bytes = statSync(oursOut).size;
            rmSync(oursOut, { force: true });
            return {
              eventsPerSec: (count * 1000) / r.wallMs,
              wallMs: r.wallMs,
              peakRssMb: r.peakRssMb,
              bytes,
            };
          },
          raw: async () => {
            const r = await runNodeOk('raw audit export', [
              RAW,
              server.url,
              KEY,
              from,
              to,
              String(PAGE_SIZE),
              rawOut,
            ]);
            rmSync(rawOut, { force: true });
            const report = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
            if (report.totalElements !== count) {
              throw new Error(`raw export saw totalElements ${report.totalElements}, expected ${count}`);
            }
            return {
              eventsPerSec: (count * 1000) / r.wallMs,
              wallMs: r.wallMs,
              peakRssMb: r.peakRssMb,
              bytes: report.bytes,
            };
          },
        },
        log,
      );

      const ours = { name: 'ours', value: medianOf(results.ours, 'eventsPerSec'), unit: 'events/s' };
      const raw = { name: 'raw undici', value: medianOf(results.raw, 'eventsPerSec'), unit: 'events/s' };
      const oursRss = { name: 'ours', value: medianOf(results.ours, 'peakRssMb'), unit: 'MB' };
      const rawRss = { name: 'raw undici', value: medianOf(results.raw, 'peakRssMb'), unit: 'MB' };
      return {
        rows: [
          ratioRow({
            scenario: `${scenario}: rate`,
            ours,
            baselines: [raw],
            against: raw,
            min: MIN_RATIO,
            goal: `>= ${MIN_RATIO}x raw`,
            measure: `wall time, medians of ${rounds} round${rounds === 1 ? '' : 's'}`,
          }),
          limitRow({
            scenario: `${scenario}: peak RSS`,
            ours: oursRss,
            baselines: [rawRss],
            below: RSS_LIMIT_MB,
            goal: `< ${RSS_LIMIT_MB} MB`,
            measure: `median of ${rounds} run${rounds === 1 ? '' : 's'}`,
          }),
        ],
        raw: { count, rounds, pageSize: PAGE_SIZE, results },
      };
    }),
  );
}
