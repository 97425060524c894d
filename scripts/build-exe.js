#!/usr/bin/env node
// `npm run build:exe`: `svc` as two single executables, for people without Node:
// dist-exe/svc-win-x64.exe and dist-exe/svc-linux-x64, and dist-exe/SHA256SUMS.
//
// Node's Single Executable Applications: the CLI bundled by esbuild into one CommonJS file (a
// SEA's main script is CommonJS in Node 22), a preparation blob made from it by the pinned Linux
// Node, and that blob injected by postject into a copy of each pinned Node binary. Both binaries
// are Node 22.23.3 (scripts/node-binaries.js): a blob runs only in the Node version that made it.
// Needs dist/assets (the dev server's browser files, carried as SEA assets): `build:exe` runs
// `npm run build` first.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_VERSION, nodeBinary } from './node-binaries.js';
import { withoutSignature } from './pe-signature.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the binaries go: outside dist/, which every `npm run build` cleans. */
const OUT_DIR = join(root, 'dist-exe');

/** The binaries, by pinned Node platform (test/exe, examples/release and the docs name them too). */
const EXECUTABLES = { linux: 'svc-linux-x64', win: 'svc-win-x64.exe' };

/** The file of SHA-256 sums, in `sha256sum` format (`sha256sum -c SHA256SUMS` checks it). */
const SUMS_FILE = 'SHA256SUMS';

/** Node's documented fuse: the flag postject flips to tell the binary a blob is inside. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** postject's command (its package's `bin`), run with this Node. */
const POSTJECT_CLI = (() => {
  const manifest = createRequire(import.meta.url).resolve('postject/package.json');
  return join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.postject);
})();

/** The dev server's browser files, read at run time from the blob (src/server/console/assets.ts). */
const ASSETS_DIR = join(root, 'dist', 'assets');

/**
 * The CLI in one CommonJS file, every dependency inside (exceljs, iconv-lite, ...). Not minified:
 * it started no faster (153 against 156 ms), and `--debug`'s stack traces stay readable.
 */
async function bundle(work) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const outfile = join(work, 'svc.cjs');
  await build({
    entryPoints: [join(root, 'src', 'cli', 'single-executable.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    outfile,
    // Nothing external: the AWS SDK, an optional peer of the npm package for s3:// archives, goes
    // in too once the CLI's code imports it (1.5 MB): the user of a binary has no npm to
    // install a peer with.
    define: {
      __SVC_VERSION__: JSON.stringify(version),
      // CommonJS has no import.meta: the one module that reads it (the assets' folder outside a SEA)
      // gets the bundle's own URL.
      'import.meta.url': '__svcBundleUrl',
    },
    banner: { js: "const __svcBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * The SEA preparation blob, made by the pinned Linux Node (the Windows one cannot run here).
 * Without V8's code cache, though it started the Linux binary in 60 ms instead of 150: a cache
 * made by Linux Node does not fit the Windows one, it differs from build to build (no reproducible
 * binary), and any V8 flag in NODE_OPTIONS (a CI's `--max-old-space-size=4096`) makes Node reject
 * it with a warning on every run, before any code of svc could keep it quiet.
 */
function blob(work, main) {
  const assets = Object.fromEntries(readdirSync(ASSETS_DIR).map((name) => [name, join(ASSETS_DIR, name)]));
  const output = 'sea-prep.blob';
  const config = 'sea-config.json';
  writeFileSync(
    join(work, config),
    JSON.stringify({
      // Relative to `work`, which Node runs in: the blob records the path, and a random temporary
      // folder's name in it would make every build's binaries differ.
      main: relative(work, main),
      output,
      // Users of svc.exe should not see Node's warning about an experimental feature on every run.
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      assets,
    }),
  );
  execFileSync(nodeBinary('linux'), ['--experimental-sea-config', config], { cwd: work, stdio: 'pipe' });
  return join(work, output);
}

/**
 * A copy of the pinned Node for `platform` (the Windows one without Node's signature, which the
 * blob would break) with the blob injected by postject's CLI, renamed into place when whole. A
 * child process each: the two injections (12 and 5 s of WebAssembly) run side by side, and
 * postject's harmless warnings about Node's ELF notes and PE signature stay out of the build's output.
 */
async function executable(platform, prepared) {
  const target = join(OUT_DIR, EXECUTABLES[platform]);
  const partial = `${target}.partial`;
  const node = readFileSync(nodeBinary(platform));
  writeFileSync(partial, platform === 'win' ? withoutSignature(node) : node, { mode: 0o755 });
  try {
    await run(process.execPath, [
      POSTJECT_CLI,
      partial,
      'NODE_SEA_BLOB',
      prepared,
      '--sentinel-fuse',
      SEA_FUSE,
    ]);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  renameSync(partial, target);
  return target;
}

/** Runs a command with its output kept; rejects with that output when it fails. */
function run(command, args) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stdout}${stderr}`));
      else resolve();
    });
  });
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const megabytes = (file) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;

async function buildExecutables() {
  if (!existsSync(ASSETS_DIR)) throw new Error('dist/assets is missing: run npm run build first');
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'svc-exe-'));
  try {
    rmSync(OUT_DIR, { recursive: true, force: true });
    mkdirSync(OUT_DIR, { recursive: true });
    const main = await bundle(work);
    const prepared = blob(work, main);
    const made = await Promise.all(['linux', 'win'].map((platform) => executable(platform, prepared)));
    writeFileSync(
      join(OUT_DIR, SUMS_FILE),
      made.map((file) => `${sha256(file)}  ${file.slice(OUT_DIR.length + 1)}\n`).join(''),
    );
    process.stdout.write(`Node ${NODE_VERSION}, bundle ${megabytes(main)}\n`);
    for (const file of made) process.stdout.write(`${file.slice(root.length + 1)}  ${megabytes(file)}\n`);
    process.stdout.write(`built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildExecutables().catch((error) => {
    process.stderr.write(`build-exe: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
