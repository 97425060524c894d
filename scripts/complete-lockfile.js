#!/usr/bin/env node
// npm 11 leaves out of package-lock.json the platform binaries (other OS/CPU) that a registry
// mirror does not serve, and then `npm ci` rejects that same lockfile (npm/cli#9846). This adds
// the missing optional entries back, with os/cpu/libc read from the package names, so `npm ci`
// installs the current platform's binary and skips the others. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lockPath = join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const OS = [
  'darwin',
  'linux',
  'win32',
  'android',
  'freebsd',
  'openbsd',
  'netbsd',
  'openharmony',
  'sunos',
  'aix',
];
const CPU = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OS.includes(t));
  const cpu =
    tokens.find((t) => CPU.includes(t)) ??
    (tokens.includes('arm') || tokens.some((t) => t.startsWith('arm')) ? 'arm' : undefined);
  const libc = tokens.some((t) => t.startsWith('musl'))
    ? 'musl'
    : tokens.some((t) => t === 'gnu' || t.startsWith('gnueabi'))
      ? 'glibc'
      : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  if (!entry.optionalDependencies) continue;
  for (const [name, version] of Object.entries(entry.optionalDependencies)) {
    const key = `node_modules/${name}`;
    if (lock.packages[key] || lock.packages[`${path}/${key}`]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os || !cpu) continue;
    lock.packages[key] = {
      version,
      ...(entry.dev && { dev: true }),
      optional: true,
      os: [os],
      cpu: [cpu],
      ...(libc && { libc: [libc] }),
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0,
  ),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} platform entr${added === 1 ? 'y' : 'ies'} added`);
