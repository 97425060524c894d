// Audit sync: `svc audit sync` of one run holding 1,000,000 events (the export, the run file
// without the ids archived already, the manifest and the overlap window in the state), into a
// folder and into a bucket (`s3://`, the tests' loopback S3 server in a process of its own),
// alternating round by round. The folder run is reported (events/s, peak RSS, state size); the
// bucket run is held to issue 35's goals against it: >= 0.7x its events/s, <= 1.2x its peak RSS.
// Child processes; wall time includes process start.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { missingCommand } from '../lib/available.js';
import { processCpuMs, runNodeOk } from '../lib/child.js';
import { ratioRow, reportRow, unavailableRow, withScratch } from '../lib/rows.js';
import { startS3Process } from '../lib/s3-server.js';
import { SVC_BIN, withServer } from '../lib/server.js';
import { interleave, medianOf } from '../lib/stats.js';

const KEY = 'ak_demo_project';
const HOUR = 3600_000;

export const name = 'audit-sync';

/**
 * CPU a server process used since `before` (ms, null off Linux). The API server's and the S3
 * server's run on the same cores as the CLI: a run's wall time holds them, its own CPU does not.
 */
function cpuSince(pid, before) {
  const after = processCpuMs(pid);
  return before === null || after === null ? null : after - before;
}

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
      const since = iso(now - 3 * HOUR);
      const bucket = await startS3Process(['bench']).catch((error) => ({ error }));
      let measured = 0;
      /** One run into a folder: the folder's figures, and the state's size. */
      const folder = async () => {
        const archive = join(dir, `archive-${measured++}`);
        const args = [SVC_BIN, '-q', 'audit', 'sync', '--dir', archive, '--since', since, '--overlap', '3h'];
        const apiBefore = processCpuMs(server.pid);
        const r = await runNodeOk('svc audit sync', args, { env, cpu: true });
        const apiCpuMs = cpuSince(server.pid, apiBefore);
        const stateMb = statSync(join(archive, 'sync-state.json')).size / 1e6;
        rmSync(archive, { recursive: true, force: true });
        const cpuUsPerEvent = r.cpuMs === null ? null : (r.cpuMs * 1000) / count;
        const { wallMs, peakRssMb, cpuMs } = r;
        const eventsPerSec = (count * 1000) / wallMs;
        return { eventsPerSec, wallMs, peakRssMb, cpuMs, apiCpuMs, cpuUsPerEvent, stateMb };
      };
      /** One run into a fresh prefix of the bucket, its export waiting in the scratch folder. */
      const inBucket = async () => {
        if ('error' in bucket)
          return {
            eventsPerSec: null,
            wallMs: null,
            peakRssMb: null,
            cpuMs: null,
            apiCpuMs: null,
            s3CpuMs: null,
          };
        const archive = `s3://bench/run-${measured++}`;
        const args = [SVC_BIN, '-q', 'audit', 'sync', '--dir', archive, '--since', since, '--overlap', '3h'];
        const apiBefore = processCpuMs(server.pid);
        const s3Before = bucket.cpuMs();
        const r = await runNodeOk('svc audit sync (bucket)', [...args, '--work-dir', join(dir, 'work')], {
          env: { ...env, ...bucket.env },
          cpu: true,
        });
        const apiCpuMs = cpuSince(server.pid, apiBefore);
        const s3After = bucket.cpuMs();
        const s3CpuMs = s3Before === null || s3After === null ? null : s3After - s3Before;
        const { wallMs, peakRssMb, cpuMs } = r;
        return { eventsPerSec: (count * 1000) / wallMs, wallMs, peakRssMb, cpuMs, apiCpuMs, s3CpuMs };
      };
      let measuredRuns;
      try {
        measuredRuns = await interleave(rounds, { folder, bucket: inBucket }, log);
      } finally {
        if (!('error' in bucket)) await bucket.stop();
      }
      const results = measuredRuns.folder;
      const bucketResults = measuredRuns.bucket;
      const folderRate = { name: 'folder', value: medianOf(results, 'eventsPerSec'), unit: 'events/s' };
      const folderRss = { name: 'folder', value: medianOf(results, 'peakRssMb'), unit: 'MB' };
      const bucketRows =
        'error' in bucket
          ? [unavailableRow(`${scenario} into a bucket`, '>= 0.7x the folder run', String(bucket.error))]
          : [
              ratioRow({
                scenario: `${scenario} into a bucket: rate`,
                ours: { name: 'ours', value: medianOf(bucketResults, 'eventsPerSec'), unit: 'events/s' },
                baselines: [folderRate],
                against: folderRate,
                min: 0.7,
                goal: '>= 0.7x the folder run',
                measure: `wall time, medians of ${rounds} run${rounds === 1 ? '' : 's'} each`,
                note: "issue 35; the bucket is s3rver behind the tests' wrapper on loopback, in its own process",
              }),
              ratioRow({
                scenario: `${scenario} into a bucket: peak RSS`,
                ours: { name: 'ours', value: medianOf(bucketResults, 'peakRssMb'), unit: 'MB' },
                baselines: [folderRss],
                against: folderRss,
                max: 1.2,
                goal: '<= 1.2x the folder run',
                measure: `peak RSS, medians of ${rounds} run${rounds === 1 ? '' : 's'} each`,
              }),
            ];
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
            scenario: `${scenario}: CPU per event`,
            ours: { name: 'ours', value: medianOf(results, 'cpuUsPerEvent'), unit: 'us' },
            note: 'user + system CPU of the sync process, folder run',
          }),
          reportRow({
            scenario: `${scenario}: sync-state.json`,
            ours: { name: 'ours', value: medianOf(results, 'stateMb'), unit: 'MB' },
            note: 'goal of issue 25: < 20 MB with 1,000,000 events in the window',
          }),
          ...bucketRows,
        ],
        raw: { count, rounds, results, bucketResults },
      };
    }),
  );
}
