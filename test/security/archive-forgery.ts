import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ArchiveEdits } from '../audit/helpers.js';

// What a forger with write access to an archive folder does: data files replaced by hostile ones
// and manifests rewritten to list them, still validly chained (each later manifest re-linked to the
// new bytes, the sync state's head too), so only the rules about the files themselves can refuse them.

const MIB = 1024 * 1024;
const sha256 = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Rewrites manifest `name` of the folder archive `dir` by `edit`, then re-links every later
 * manifest to its predecessor's new bytes and the sync state (when there is one) to the new head.
 * With `compact`, the edited manifest is written without indentation (verify reads either).
 */
export function forgeManifest(
  dir: string,
  name: string,
  edit: ArchiveEdits[string],
  options: { compact?: boolean } = {},
): void {
  const names = readdirSync(dir)
    .filter((n) => /^manifest-\d{6}\.json$/.test(n))
    .sort();
  const manifest = JSON.parse(readFileSync(join(dir, name), 'utf8'));
  edit(manifest);
  let bytes = `${options.compact ? JSON.stringify(manifest) : JSON.stringify(manifest, null, 2)}\n`;
  writeFileSync(join(dir, name), bytes);
  let previous = name;
  for (const later of names.slice(names.indexOf(name) + 1)) {
    const next = JSON.parse(readFileSync(join(dir, later), 'utf8'));
    next.previous = { name: previous, sha256: sha256(bytes) };
    bytes = `${JSON.stringify(next, null, 2)}\n`;
    writeFileSync(join(dir, later), bytes);
    previous = later;
  }
  const statePath = join(dir, 'sync-state.json');
  let state: { lastManifest: unknown };
  try {
    state = JSON.parse(readFileSync(statePath, 'utf8'));
  } catch {
    return;
  }
  state.lastManifest = { name: previous, sha256: sha256(bytes) };
  writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * Replaces data file `file` of the folder archive `dir` by `bytes` (a Buffer, or a path already
 * written) and lists it in `manifest` with its real size and sha256, the chain re-linked.
 */
export function forgeDataFile(dir: string, manifest: string, file: string, written?: Buffer): void {
  if (written) writeFileSync(join(dir, file), written);
  const bytes = readFileSync(join(dir, file));
  forgeManifest(dir, manifest, (m) => {
    const entry = m.files.find((f: { name: string }) => f.name === file);
    entry.bytes = bytes.length;
    entry.sha256 = sha256(bytes);
  });
}

/**
 * Writes a gzip file at `path` that inflates to `inflatedMiB` MiB: zero bytes, with a newline
 * every `lineBytes` bytes when given (none at all by default). Streamed as gzip members of 64 MiB
 * each (gunzip reads concatenated members as one stream), so 2 GiB take some 2 MB on disk and
 * never more than 64 MiB in this process. Returns its size in bytes.
 */
export function writeGzipBomb(path: string, inflatedMiB: number, lineBytes?: number): number {
  const unit = Buffer.alloc(64 * MIB);
  if (lineBytes) for (let at = lineBytes - 1; at < unit.length; at += lineBytes) unit[at] = 0x0a;
  const member = gzipSync(unit, { level: 9 });
  const fd = openSync(path, 'w');
  try {
    for (let written = 0; written < inflatedMiB; written += 64) writeSync(fd, member);
  } finally {
    closeSync(fd);
  }
  return member.length * Math.ceil(inflatedMiB / 64);
}
