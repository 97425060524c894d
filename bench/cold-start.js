#!/usr/bin/env node
// Cold start of `svc --help`, `svc --version` and of importing the library entries
// (`import('svc-sdk/botcheck')`, `import('svc-sdk')`), against a bare `node -e 0`, interleaved.
// Targets (issue 34): `svc --help` within 1.3x of `node -e 0`; the bot-check entry at most 15 ms
// and the root entry at most 25 ms over it, each run measured against a `node -e 0` run just
// before it. Needs a build (`npm run build`).
// Usage: node bench/cold-start.js [--quick] [--rounds N]; the last stdout line is the result as JSON.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Target ratio of `svc --help` to `node -e 0`. */
export const TARGET_RATIO = 1.3;
/** Most a cold import may add to `node -e 0`, ms, per entry. */
export const IMPORT_TARGET_MS = { botcheck: 15, root: 25 };

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function timeOnce(args, env) {
  const started = process.hrtime.bigint();
  const res = spawnSync(process.execPath, args, { stdio: 'ignore', env });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${res.status}`);
  return ms;
}

/**
 * Times each command right after a `node -e 0` of its own, round after round (the order of the
 * commands rotates every round), and reports medians. The added time of an import and the ratio
 * of `--help` are medians of those pairs: on a shared machine the speed of a process start drifts
 * by tens of milliseconds within a minute, and a pair sees the same drift twice.
 * @param {{ rounds?: number, root?: string }} [options] rounds default 15
 */
export function measureColdStart(options = {}) {
  const rounds = options.rounds ?? 15;
  const root = options.root ?? ROOT;
  const bin = join(root, 'bin', 'svc.js');
  if (!existsSync(join(root, 'dist', 'cli', 'cli.js'))) {
    throw new Error('dist/cli/cli.js is missing: run `npm run build` first');
  }
  const env = { ...process.env, NO_COLOR: '1' };
  const node = ['-e', '0'];
  const commands = [
    ['help', [bin, '--help']],
    ['version', [bin, '--version']],
    // `node -e "import(...)"`: the same start as `node -e 0` plus the ESM load of the entry.
    ['botcheck', ['-e', `import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'botcheck.js')).href)})`]],
    ['root', ['-e', `import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'index.js')).href)})`]],
  ];
  // One untimed run of each fills the file system cache.
  timeOnce(node, env);
  for (const [, args] of commands) timeOnce(args, env);
  const samples = { node: [], help: [], version: [], botcheck: [], root: [] };
  /** Per pair: the command's time over (ratios) or minus (ms) its own `node -e 0`. */
  const pairs = { help: [], version: [], botcheck: [], root: [] };
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < commands.length; i++) {
      const [name, args] = commands[(round + i) % commands.length];
      const base = timeOnce(node, env);
      const ms = timeOnce(args, env);
      samples.node.push(base);
      samples[name].push(ms);
      pairs[name].push(name === 'help' || name === 'version' ? ms / base : ms - base);
    }
  }
  const medianMs = {
    node: median(samples.node),
    help: median(samples.help),
    version: median(samples.version),
    botcheck: median(samples.botcheck),
    root: median(samples.root),
  };
  const ratio = { help: median(pairs.help), version: median(pairs.version) };
  const addedMs = { botcheck: median(pairs.botcheck), root: median(pairs.root) };
  return {
    bench: 'cold-start',
    node: process.version,
    rounds,
    medianMs,
    ratio,
    addedMs,
    targetRatio: TARGET_RATIO,
    importTargetMs: IMPORT_TARGET_MS,
    withinTarget: ratio.help <= TARGET_RATIO,
    samplesMs: samples,
  };
}

function parseRounds(argv) {
  if (argv.includes('--quick')) return 5;
  const at = argv.indexOf('--rounds');
  if (at === -1) return 15;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--rounds takes a whole number >= 1, got '${argv[at + 1]}'`);
  return n;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const result = measureColdStart({ rounds: parseRounds(process.argv.slice(2)) });
    const f = (ms) => `${ms.toFixed(1)} ms`;
    console.log(`cold start, median of ${result.rounds} interleaved rounds (${result.node})`);
    console.log(`  node -e 0          ${f(result.medianMs.node)}`);
    console.log(`  svc --help         ${f(result.medianMs.help)}  (${result.ratio.help.toFixed(2)}x node)`);
    console.log(
      `  svc --version      ${f(result.medianMs.version)}  (${result.ratio.version.toFixed(2)}x node)`,
    );
    console.log(`  import botcheck    ${f(result.medianMs.botcheck)}  (+${f(result.addedMs.botcheck)})`);
    console.log(`  import svc-sdk     ${f(result.medianMs.root)}  (+${f(result.addedMs.root)})`);
    console.log(
      `  target: --help within ${TARGET_RATIO}x of node -e 0: ${result.withinTarget ? 'met' : 'NOT met'}`,
    );
    console.log(JSON.stringify(result));
  } catch (error) {
    console.error(`cold-start: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
