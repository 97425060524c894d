// Batch with --wait: `svc batch FILE --out OUT --wait --register URL` against `svc serve` with
// 20 % of webhook delivery attempts failing (500, reset, lost), the server's default retry
// schedule. Every row must end with an outcome, each validated once (the server's stats say so);
// reported: rows/s from spawn to exit, and the CLI's peak RSS (goal: under 250 MB). Then the same
// with `--sandbox` at 100,000 rows (the reference server in the CLI's own process, so its stores
// count against the CLI's RSS; no fault injection: the sandbox takes no admin calls from outside).
import { createReadStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { loadLibrary, missingCommand } from '../lib/available.js';
import { writeBatchCsv } from '../lib/batch-input.js';
import { runNodeOk } from '../lib/child.js';
import { limitRow, reportRow, unavailableRow, withScratch } from '../lib/rows.js';
import { SVC_BIN, withServer } from '../lib/server.js';

const KEY = 'ak_demo_project';
const RSS_LIMIT_MB = 250;
const FAULTS = { rate: 0.2, kinds: ['webhookStatus500', 'webhookReset', 'webhookLost'], seed: 22 };

export const name = 'batch-wait';

/**
 * The two rows of one run: its rate (report only) and its peak RSS against the limit.
 * @param {string} scenario
 * @param {number} rowsPerSec
 * @param {number} peakRssMb
 */
function rateAndRss(scenario, rowsPerSec, peakRssMb) {
  return [
    reportRow({ scenario: `${scenario}: rate`, ours: { name: 'ours', value: rowsPerSec, unit: 'rows/s' } }),
    limitRow({
      scenario: `${scenario}: peak RSS`,
      ours: { name: 'ours', value: peakRssMb, unit: 'MB' },
      below: RSS_LIMIT_MB,
      goal: `< ${RSS_LIMIT_MB} MB`,
      measure: 'one run',
    }),
  ];
}

/**
 * Counts the result lines of an NDJSON output by status, streamed (the file may hold a million lines).
 * @param {string} path
 */
async function tally(path) {
  /** @type {Record<string, number>} */
  const counts = {};
  for await (const line of createInterface({ input: createReadStream(path) })) {
    if (!line) continue;
    const status = JSON.parse(line).status;
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

/**
 * The figures of a finished run: its statuses (tallied from OUT, which is then removed with its
 * state file), wall time, rate and peak RSS.
 * @param {string} out
 * @param {number} count
 * @param {{ wallMs: number, peakRssMb: number }} r
 */
async function finished(out, count, r) {
  const counts = await tally(out);
  rmSync(out, { force: true });
  rmSync(`${out}.state.json`, { force: true });
  return { count, wallMs: r.wallMs, rowsPerSec: (count * 1000) / r.wallMs, peakRssMb: r.peakRssMb, counts };
}

/**
 * `svc batch FILE --out OUT --wait --sandbox`: every row must be completed.
 * @param {string} dir
 * @param {number} count
 * @param {(country: string, value: string) => { valid: boolean }} precheck
 */
async function runSandbox(dir, count, precheck) {
  const csv = join(dir, 'sandbox-rows.csv');
  await writeBatchCsv(csv, count, precheck);
  const out = join(dir, 'sandbox-out.ndjson');
  const r = await runNodeOk('svc batch --wait --sandbox', [
    SVC_BIN,
    '-q',
    'batch',
    csv,
    '--out',
    out,
    '--wait',
    '--sandbox',
  ]);
  const result = await finished(out, count, r);
  rmSync(csv, { force: true });
  if (result.counts.completed !== count)
    throw new Error(`not every sandbox row completed: ${JSON.stringify(result)}`);
  return result;
}

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const count = quick ? 50_000 : 1_000_000;
  const scenario = `batch --wait ${count.toLocaleString('en-US')} rows, 20 % webhook faults`;
  const missing = await missingCommand(['batch'], ['--wait', '--reconcile-after']);
  const { lib, why } = await loadLibrary();
  if (missing || !lib?.precheck) {
    const reason = missing ?? why ?? 'precheck is not exported';
    return {
      rows: [unavailableRow(`${scenario}: rate`, `RSS < ${RSS_LIMIT_MB} MB`, reason)],
      raw: { missing: reason },
    };
  }
  return withServer({}, (server) =>
    withScratch(name, async (dir) => {
      const csv = join(dir, 'rows.csv');
      await writeBatchCsv(csv, count, lib.precheck);
      const out = join(dir, 'out.ndjson');
      await server.admin('/reset');
      await server.admin('/faults', FAULTS);
      const args = [SVC_BIN, '-q', 'batch', csv, '--out', out, '--wait', '--register', server.url];
      const r = await runNodeOk('svc batch --wait', args, {
        env: { SVC_BASE_URL: server.url, SVC_API_KEY: KEY },
      });
      const stats = await server.admin('/stats');
      const result = {
        ...(await finished(out, count, r)),
        validationsProcessed: stats.validationsProcessed,
        idempotentReplays: stats.idempotentReplays,
        webhooksSent: stats.webhooksSent,
        webhooksFailed: stats.webhooksFailed,
        webhookAttempts: stats.webhookAttempts,
        faultsInjected: stats.faultsInjected,
      };
      log(`  batch-wait ours: ${JSON.stringify(result)}`);
      if (result.counts.completed !== count || stats.validationsProcessed !== count)
        throw new Error(`not every row answered once: ${JSON.stringify(result)}`);
      const sandbox = await runSandbox(dir, quick ? 20_000 : 100_000, lib.precheck);
      log(`  batch-wait --sandbox ours: ${JSON.stringify(sandbox)}`);
      const sandboxScenario = `batch --wait --sandbox ${sandbox.count.toLocaleString('en-US')} rows`;
      return {
        rows: [
          ...rateAndRss(scenario, result.rowsPerSec, r.peakRssMb),
          ...rateAndRss(sandboxScenario, sandbox.rowsPerSec, sandbox.peakRssMb),
        ],
        raw: { ...result, sandbox },
      };
    }),
  );
}
