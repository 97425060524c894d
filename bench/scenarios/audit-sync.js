// Audit sync: `svc audit sync` of one run holding 1,000,000 events (the export, the run file
// without the ids archived already, the manifest and the overlap window in the state). Report only:
// events/s and peak RSS, and the size of the state the run leaves. A child process; wall time
// includes process start.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { missingCommand } from '../lib/available.js';
import { runNodeOk } from '../lib/child.js';
import { reportRow, unavailableRow, withScratch } from '../lib/rows.js';
import { SVC_BIN, withServer } from '../lib/server.js';
import { medianOf } from '../lib/stats.js';

const KEY = 'ak_demo_project';
const HOUR = 3600_000;

export const name = 'audit-sync';

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const count = quick ? 50_000 : 1_000_000;
  const rounds = quick ? 1 : 2;
  const scenario = `audit sync ${count.toLocaleString('en-US')} events in one run`;
  const missing = await missingCommand(['audit', 'sync'], ['--dir', '--since', '--overlap']);
  if (missing)
    return { rows: [unavailableRow(`${scenario}: events/s`, 'report', missing)], raw: { missing } };

  return withServer({ seedAuditEvents: 0 }, (server) =>
    withScratch(name, async (dir) => {
      const now = Date.now();
      const iso = (ms) => new Date(ms).toISOString();
      // Every event inside the overlap window of the run's end: the state keeps all of them.
      const seeded = await server.admin('/audit-events', {
        count,
        scope: 'project',
        from: iso(now - 2 * HOUR),
        to: iso(now - HOUR),
      });
      log(`  seeded ${seeded.added} events`);
      const env = { SVC_BASE_URL: server.url, SVC_API_KEY: KEY };
      const results = [];
      for (let round = 0; round < rounds; round++) {
        const archive = join(dir, `archive-${round}`);
        const args = [SVC_BIN, '-q', 'audit', 'sync', '--dir', archive, '--since', iso(now - 3 * HOUR)];
        const r = await runNodeOk('svc audit sync', [...args, '--overlap', '3h'], { env });
        const stateMb = statSync(join(archive, 'sync-state.json')).size / 1e6;
        rmSync(archive, { recursive: true, force: true });
        results.push({
          eventsPerSec: (count * 1000) / r.wallMs,
          wallMs: r.wallMs,
          peakRssMb: r.peakRssMb,
          stateMb,
        });
        log(
          `  round ${round + 1}: ${Math.round(r.wallMs)} ms, ${Math.round(r.peakRssMb)} MB peak, state ${stateMb.toFixed(1)} MB`,
        );
      }
      return {
        rows: [
          reportRow({
            scenario: `${scenario}: rate`,
            ours: { name: 'ours', value: medianOf(results, 'eventsPerSec'), unit: 'events/s' },
          }),
          reportRow({
            scenario: `${scenario}: peak RSS`,
            ours: { name: 'ours', value: medianOf(results, 'peakRssMb'), unit: 'MB' },
          }),
          reportRow({
            scenario: `${scenario}: sync-state.json`,
            ours: { name: 'ours', value: medianOf(results, 'stateMb'), unit: 'MB' },
            note: 'goal of issue 25: < 20 MB with 1,000,000 events in the window',
          }),
        ],
        raw: { count, rounds, results },
      };
    }),
  );
}
