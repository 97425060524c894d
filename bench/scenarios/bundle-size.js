// Bundle size of a Worker that verifies a token through svc-sdk/botcheck, against a hand-written
// fetch verify (bench/baselines/fetch-verify-worker.js): each bundled and minified by esbuild as a
// Worker build does (ESM, browser platform, workerd conditions), then gzipped. Sizes do not vary
// from run to run, so one build each.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { limitRow } from '../lib/rows.js';
import { ROOT } from '../lib/server.js';

export const name = 'bundle-size';

/** Goal of issue 34: the verifying Worker at most 20 KiB gzip, every documented behaviour kept. */
export const MAX_GZIP_BYTES = 20 * 1024;

/**
 * `entry` bundled and minified as for Workers; returns its minified and gzipped sizes in bytes.
 * `svc-sdk` resolves to the build under test (bench runs against a snapshot of dist/) through its
 * package.json exports, under the Worker conditions, as in a Worker project's node_modules.
 */
async function bundle(entry, nodeModules) {
  const result = await build({
    entryPoints: [new URL(entry, import.meta.url).pathname],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    nodePaths: [nodeModules],
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ log }) {
  const project = mkdtempSync(join(tmpdir(), 'svc-bench-worker-'));
  let ours;
  let baseline;
  try {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(ROOT, join(project, 'node_modules', 'svc-sdk'), 'dir');
    ours = await bundle('../workers/botcheck-worker.js', join(project, 'node_modules'));
    baseline = await bundle('../baselines/fetch-verify-worker.js', join(project, 'node_modules'));
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
  log(`  ours ${JSON.stringify(ours)}, hand-written fetch verify ${JSON.stringify(baseline)}`);
  const kib = (bytes) => bytes / 1024;
  return {
    rows: [
      limitRow({
        scenario: 'Worker verifying a token via svc-sdk/botcheck, esbuild --minify, gzip',
        ours: { name: 'ours', value: kib(ours.gzip), unit: 'KiB' },
        baselines: [{ name: 'hand-written fetch verify', value: kib(baseline.gzip), unit: 'KiB' }],
        below: kib(MAX_GZIP_BYTES) + Number.EPSILON,
        goal: '<= 20 KiB gzip',
        measure: 'bytes of one build',
        note: `minified: ours ${kib(ours.minified).toFixed(1)} KiB, hand-written ${kib(baseline.minified).toFixed(1)} KiB`,
      }),
    ],
    raw: { ours, baseline },
  };
}
