// Audit ship: `svc audit ship DIR --kind elasticsearch` of a gzipped folder archive (each file
// checked against its manifest, ECS documents, `create` with the event id, the checkpoint in the
// archive) to the tests' `_bulk` stand-in, against a bulk loop written by hand over the same files
// (same ECS mapping, same batch size, no checks, no checkpoint, no retry). Each run ships into a
// stand-in process of its own (started before the clock starts); wall time includes process start.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingCommand } from '../lib/available.js';
import { startBulkProcess } from '../lib/bulk-standin.js';
import { runNodeOk } from '../lib/child.js';
import { seedGzipArchive } from '../lib/gzip-archive.js';
import { limitRow, ratioRow, unavailableRow, withScratch } from '../lib/rows.js';
import { SVC_BIN, withServer } from '../lib/server.js';
import { interleave, medianOf, pairedRatio } from '../lib/stats.js';

const RAW = fileURLToPath(new URL('../baselines/raw-bulk-ship.js', import.meta.url));
const RSS_LIMIT_MB = 150;
const MIN_RATIO = 0.8;
const BATCH = 1000;

export const name = 'audit-ship';

/** How many documents an index of the stand-in holds (`GET /<index>/_count`). */
async function countOf(url, index) {
  const res = await fetch(`${url}/${index}/_count`);
  return (await res.json()).count;
}

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const count = quick ? 50_000 : 1_000_000;
  const rounds = quick ? 1 : 3;
  const scenario = `audit ship ${count.toLocaleString('en-US')} archived events (gzip, folder) to a _bulk stand-in, ECS, batches of ${BATCH}`;
  const missing = await missingCommand(['audit', 'ship'], ['--dest']);
  if (missing) {
    return {
      rows: [unavailableRow(`${scenario}: events/s`, `>= ${MIN_RATIO}x a hand-written bulk loop`, missing)],
      raw: { missing },
    };
  }
  return withServer({ seedAuditEvents: 0 }, (server) =>
    withScratch(name, async (scratch) => {
      const dir = join(scratch, 'archive');
      await seedGzipArchive(server, dir, count, log);
      /** One run into a fresh stand-in: rate, RSS, and the count the stand-in holds after it. */
      const shipInto = async (what, args) => {
        const bulk = await startBulkProcess();
        try {
          const r = await runNodeOk(what, args(bulk.url), { env: { HOME: scratch } });
          const stored = await countOf(bulk.url, 'svc-audit-events');
          if (stored !== count) throw new Error(`${what} left ${stored} documents, not ${count}`);
          return { eventsPerSec: (count * 1000) / r.wallMs, wallMs: r.wallMs, peakRssMb: r.peakRssMb };
        } finally {
          await bulk.stop();
        }
      };
      const contenders = {
        ours: () =>
          shipInto('svc audit ship', (url) => [
            SVC_BIN,
            '-q',
            'audit',
            'ship',
            dir,
            '--dest',
            url,
            '--kind',
            'elasticsearch',
            '--batch-size',
            String(BATCH),
            '--restart',
          ]),
        handWritten: () =>
          shipInto('hand-written bulk loop', (url) => [RAW, dir, url, 'svc-audit-events', String(BATCH)]),
      };
      const results = await interleave(rounds, contenders, log);
      const ours = { name: 'ours', value: medianOf(results.ours, 'eventsPerSec'), unit: 'events/s' };
      const hand = {
        name: 'hand-written bulk loop',
        value: medianOf(results.handWritten, 'eventsPerSec'),
        unit: 'events/s',
      };
      return {
        rows: [
          ratioRow({
            scenario: `${scenario}: rate`,
            ours,
            baselines: [hand],
            against: hand,
            ratio: pairedRatio(results.ours, results.handWritten, 'eventsPerSec') ?? undefined,
            min: MIN_RATIO,
            goal: `>= ${MIN_RATIO}x a hand-written bulk loop`,
            measure: `wall time, medians of ${rounds} round${rounds === 1 ? '' : 's'}`,
          }),
          limitRow({
            scenario: `${scenario}: peak RSS`,
            ours: { name: 'ours', value: medianOf(results.ours, 'peakRssMb'), unit: 'MB' },
            baselines: [
              { name: 'hand-written', value: medianOf(results.handWritten, 'peakRssMb'), unit: 'MB' },
            ],
            below: RSS_LIMIT_MB,
            goal: `< ${RSS_LIMIT_MB} MB`,
            measure: `median of ${rounds} run${rounds === 1 ? '' : 's'}`,
          }),
        ],
        raw: { count, rounds, batch: BATCH, results },
      };
    }),
  );
}
