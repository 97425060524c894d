// Audit search: `svc audit search --dir DIR actor.type:API_KEY -o ndjson` over a gzipped folder
// archive (each data file checked against its manifest, the matches printed as archived) vs
// DuckDB's read_ndjson counting the same query over the same files. Both are child processes;
// wall time includes process start. The same search over the same events synced into a bucket
// (the tests' loopback S3 server, in a process of its own) is reported beside them.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingCommand } from '../lib/available.js';
import { runNodeOk } from '../lib/child.js';
import { seedGzipArchive } from '../lib/gzip-archive.js';
import { limitRow, ratioRow, reportRow, unavailableRow, withScratch } from '../lib/rows.js';
import { startS3Process } from '../lib/s3-server.js';
import { SVC_BIN, withServer } from '../lib/server.js';
import { interleave, medianOf } from '../lib/stats.js';

const DUCKDB = fileURLToPath(new URL('../baselines/duckdb-search.js', import.meta.url));
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
    withScratch(name, async (scratch) => {
      const dir = join(scratch, 'archive');
      const work = join(scratch, 'work');
      const { env, since } = await seedGzipArchive(server, dir, count, log);
      const bucket = await startS3Process(['bench']).catch((error) => ({ error }));
      const bucketArchive = 's3://bench/search';
      if (!('error' in bucket))
        await runNodeOk(
          'svc audit sync (bucket)',
          [
            SVC_BIN,
            '-q',
            'audit',
            'sync',
            '--dir',
            bucketArchive,
            '--gzip',
            '--since',
            since,
            '--work-dir',
            work,
          ],
          { env: { ...env, ...bucket.env } },
        );
      let expected;
      /** One `svc audit search` over `archive`: its rate from its footer, its RSS, its count. */
      const search = async (archive, extraEnv = {}) => {
        const r = await runNodeOk(
          'svc audit search',
          [SVC_BIN, 'audit', 'search', '--dir', archive, QUERY, '-o', 'ndjson'],
          { env: { ...env, ...extraEnv } },
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
      };
      const contenders = {
        ours: () => search(dir),
        ...(!('error' in bucket) && { bucket: () => search(bucketArchive, bucket.env) }),
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
      };
      let results;
      try {
        results = await interleave(rounds, contenders, log);
      } finally {
        if (!('error' in bucket)) await bucket.stop();
      }
      for (const round of [...results.ours, ...results.duckdb, ...(results.bucket ?? [])])
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
      const folderRate = { name: 'folder', value: ours.value, unit: 'events/s' };
      const bucketRows =
        'error' in bucket
          ? [unavailableRow(`${scenario} from a bucket`, 'report', String(bucket.error))]
          : [
              reportRow({
                scenario: `${scenario} from a bucket: rate`,
                ours: { name: 'ours', value: medianOf(results.bucket, 'eventsPerSec'), unit: 'events/s' },
                baselines: [folderRate, duck],
                measure: `wall time, medians of ${rounds} round${rounds === 1 ? '' : 's'}`,
                note: "the tests' loopback S3 server (s3rver) in its own process, sharing the cores",
              }),
              reportRow({
                scenario: `${scenario} from a bucket: peak RSS`,
                ours: { name: 'ours', value: medianOf(results.bucket, 'peakRssMb'), unit: 'MB' },
              }),
            ];
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
          ...bucketRows,
        ],
        raw: { count, rounds, query: QUERY, results },
      };
    }),
  );
}
