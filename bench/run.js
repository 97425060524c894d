#!/usr/bin/env node
// The benchmark suite: every hot path against its baseline in one run, one table, and the raw
// figures in bench/results.json. Needs a build (`npm run bench` builds first).
// usage: node bench/run.js [--quick] [--only NAME[,NAME...]]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshotBuild } from './lib/snapshot.js';
import { renderTable } from './lib/table.js';

/** In the order they run: the cheap, quiet ones first. */
export const SCENARIOS = [
  'cold-start',
  'bundle-size',
  'precheck',
  'audit-export',
  'audit-sync',
  'audit-search',
  'audit-ship',
  'audit-receive',
  'batch',
  'batch-wait',
  'botcheck',
  'reference-server',
];

const USAGE = `usage: node bench/run.js [--quick] [--only NAME[,NAME...]]
scenarios: ${SCENARIOS.join(', ')}`;

/**
 * @param {string[]} argv
 * @returns {{ quick: boolean, only: string[] }}
 */
export function parseArgs(argv) {
  let quick = false;
  let only = [...SCENARIOS];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') quick = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      if (!value) throw new Error('--only needs a scenario name');
      only = value.split(',').map((s) => s.trim());
      const unknown = only.filter((s) => !SCENARIOS.includes(s));
      if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}`);
    } else if (arg === '--help' || arg === '-h') {
      throw Object.assign(new Error(USAGE), { help: true });
    } else throw new Error(`unknown argument ${arg}`);
  }
  return { quick, only };
}

/** Runs one scenario in its own process; resolves with its result or `{ error }`. */
function runScenario(name, quick, dir, buildRoot) {
  const resultFile = join(dir, `${name}.json`);
  const child = fileURLToPath(new URL('./lib/scenario-child.js', import.meta.url));
  const args = [child, name, resultFile, ...(quick ? ['--quick'] : [])];
  return new Promise((resolve) => {
    const env = { ...process.env, SVC_BENCH_ROOT: buildRoot };
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
    proc.once('close', (code) => {
      try {
        resolve(JSON.parse(readFileSync(resultFile, 'utf8')));
      } catch {
        resolve({ error: `scenario process exited with ${code} and left no result` });
      }
    });
  });
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    const e = /** @type {Error & { help?: boolean }} */ (error);
    (e.help ? console.log : console.error)(e.help ? e.message : `bench: ${e.message}\n${USAGE}`);
    return e.help ? 0 : 2;
  }
  let build;
  try {
    build = snapshotBuild();
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : error}`);
    return 2;
  }
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-run-'));
  // Ctrl-C reaches the scenario and server processes too (same process group); leave no copies behind.
  process.once('SIGINT', () => {
    rmSync(dir, { recursive: true, force: true });
    build.remove();
    process.exit(130);
  });
  const mode = options.quick ? 'quick' : 'full';
  console.error(`svc-sdk benchmarks (${mode}), node ${process.version}, ${cpus().length} CPUs`);
  /** @type {Record<string, any>} */
  const scenarios = {};
  const rows = [];
  try {
    for (const name of options.only) {
      const t0 = performance.now();
      console.error(`== ${name}`);
      const result = await runScenario(name, options.quick, dir, build.root);
      const seconds = (performance.now() - t0) / 1000;
      console.error(`   ${name} took ${seconds.toFixed(1)} s`);
      scenarios[name] = { seconds, ...result };
      if (result.error) {
        rows.push({
          scenario: name,
          ours: { name: 'ours', value: null, unit: '' },
          baselines: [],
          ratio: null,
          goal: '-',
          met: null,
          note: `error: ${result.error}`,
        });
      } else rows.push(...result.rows);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    build.remove();
  }
  const totalSeconds = (performance.now() - started) / 1000;
  const cpu = cpus()[0];
  const report = {
    date: new Date().toISOString(),
    mode,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpu?.model ?? 'unknown',
    totalSeconds,
    rows,
    scenarios,
  };
  writeFileSync(
    fileURLToPath(new URL('./results.json', import.meta.url)),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  console.log(
    `\nsvc-sdk benchmarks, ${mode} run: node ${process.version}, ${report.cpus} CPUs (${report.cpuModel}), ${report.date}\n`,
  );
  console.log(renderTable(rows));
  const goals = rows.filter((r) => r.met !== null);
  console.log(
    `\n${goals.filter((r) => r.met).length} of ${goals.length} goals met; total ${totalSeconds.toFixed(1)} s; raw figures in bench/results.json`,
  );
  return Object.values(scenarios).some((s) => s.error) ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main();
}
