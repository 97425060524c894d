import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../helpers/build.js';

// How the conformance tests start each runtime (Node, Deno, Bun, workerd, edge-runtime) on a
// launcher file and read its JSON results. The runtimes come from npm (devDependencies); nothing
// is downloaded here.

export const BIN = join(ROOT, 'node_modules', '.bin');
export const NODE22 = join(ROOT, 'node_modules', 'node22', 'bin', 'node');

/** A runtime a conformance launcher runs in; `Entry` names the package entry it imports. */
export interface Runtime<Entry extends string = string> {
  name: string;
  entry: Entry;
  /** The file that must exist for the runtime to run. */
  needs: string;
  /** Why this run is skipped for now (printed); remove once the reason is gone. */
  pending?: string;
  /** How the launcher hands over the results: prints them, answers a fetch, or sets a global. */
  launcher: 'main' | 'worker' | 'script';
  /** How the launcher (or its bundle) is run; the results come as JSON on stdout. */
  command(launcher: string, dir: string): Promise<[string, string[]]>;
}

/** Bundles the launcher with esbuild, as a Worker (ESM) or a script (IIFE). */
async function bundle(launcher: string, dir: string, format: 'esm' | 'iife'): Promise<string> {
  const outfile = join(dir, `bundle-${format}.js`);
  await build({
    entryPoints: [launcher],
    outfile,
    bundle: true,
    format,
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'edge-light', 'browser', 'import'],
    mainFields: ['browser', 'module', 'main'],
    // With nodejs_compat, workerd provides Node's modules itself (as `node:x` and `x`).
    external: ['node:*', ...builtinModules],
    logLevel: 'silent',
  });
  return outfile;
}

/** A runtime that runs the launcher file as it is. */
export const direct = <Entry extends string>(
  name: string,
  entry: Entry,
  bin: string,
  flags: string[] = [],
): Runtime<Entry> => ({
  name,
  entry,
  needs: bin,
  launcher: 'main',
  command: async (launcher) => [bin, [...flags, launcher]],
});

/** A runtime hosted by a Node script (test/runtimes/host-*.mjs) that runs the bundled launcher. */
export const hosted = <Entry extends string>(
  name: string,
  entry: Entry,
  host: 'edge-runtime' | 'workerd',
  extra: string[] = [],
): Runtime<Entry> => ({
  name,
  entry,
  needs: join(ROOT, 'node_modules', host === 'workerd' ? 'miniflare' : host, 'package.json'),
  launcher: host === 'workerd' ? 'worker' : 'script',
  command: async (launcher, dir) => [
    process.execPath,
    [
      join(ROOT, 'test', 'runtimes', `host-${host}.mjs`),
      await bundle(launcher, dir, host === 'workerd' ? 'esm' : 'iife'),
      ...extra,
    ],
  ],
});

/**
 * Whether the runtime can run here. A missing runtime fails in CI and is a printed skip elsewhere;
 * a pending one is a printed skip.
 */
export function isAvailable(runtime: Runtime): boolean {
  const installed = existsSync(runtime.needs);
  if (!installed) {
    if (process.env.CI === 'true') throw new Error(`${runtime.name}: ${runtime.needs} is missing`);
    console.warn(`skipped: ${runtime.name} is not installed (${runtime.needs} is missing)`);
  }
  if (runtime.pending) console.warn(`skipped: ${runtime.name}: ${runtime.pending}`);
  return installed && runtime.pending === undefined;
}

/**
 * Links dir/node_modules/svc-sdk to the project, so that a launcher in dir imports the package by
 * its name, as an app does, and each runtime or bundler picks its build by the package.json conditions.
 * dir gets a package.json of its own, as an app has: a package.json above it (one left in the temp
 * folder) would otherwise be the launcher's package, and one named svc-sdk would resolve the
 * package's name to itself (Node's self-reference) instead of to the link.
 */
export function linkPackage(dir: string): void {
  if (!existsSync(join(dir, 'package.json')))
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'svc-conformance-app', private: true })}\n`,
    );
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  if (!existsSync(join(dir, 'node_modules', 'svc-sdk')))
    symlinkSync(ROOT, join(dir, 'node_modules', 'svc-sdk'));
}

/**
 * The launcher's last lines: how the results of `run` (an expression of a promise) reach the host,
 * printed (`main`), answered to a fetch (`worker`) or left as `globalThis.__conformance`
 * (`script`, which host-edge-runtime.mjs calls).
 */
export function launcherTail(launcher: Runtime['launcher'], run: string): string {
  return {
    main: `console.log(JSON.stringify(await ${run}));`,
    worker: `export default { async fetch() { return Response.json(await ${run}); } };`,
    script: `globalThis.__conformance = () => ${run};`,
  }[launcher];
}

/** Runs the command and gives its stdout; a failure carries its stderr. */
export function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: ROOT, timeout: 120_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** The JSON results on the last line of a launcher's stdout. */
export function lastLineJson<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as T;
}
