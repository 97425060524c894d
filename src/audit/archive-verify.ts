import type { KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SvcError } from '../core/errors/svc-error.js';
import { loadPublicKey, Manifest, manifestRun, signatureValid } from './manifest.js';
import { hashFile, sha256 } from './sync-files.js';
import { readSyncState } from './sync-state.js';

/** Kinds of problem `verifyArchive` reports. */
export type ArchiveProblemKind =
  | 'missing-manifest'
  | 'bad-manifest'
  | 'broken-link'
  | 'missing-file'
  | 'changed-file'
  | 'count-mismatch'
  | 'gap'
  | 'bad-signature'
  | 'incomplete';

/** One problem, with a one-line message naming the file. */
export interface ArchiveProblem {
  kind: ArchiveProblemKind;
  /** The file concerned, relative to the archive directory. */
  file: string;
  message: string;
}

/** Options of `verifyAuditArchive`. */
export interface VerifyArchiveOptions {
  /**
   * Ed25519 public key (PEM text or key object). When given, every manifest must carry a valid
   * signature by its private half. Default: signatures are not checked.
   */
  publicKey?: string | KeyObject;
}

/** What `verifyAuditArchive` found. */
export interface VerifyArchiveResult {
  /** true only when no problem was found. */
  ok: boolean;
  /** Manifests read. */
  runs: number;
  /** Events the manifests list. */
  events: number;
  problems: ArchiveProblem[];
}

async function countLines(path: string, gzip: boolean): Promise<number> {
  const file = createReadStream(path);
  const input: Readable = gzip ? file.pipe(createGunzip()) : file;
  let lines = 0;
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line !== '') lines += 1;
  }
  return lines;
}

/**
 * Verifies a `sync` archive: re-hashes every file its manifests list, recounts their lines, walks
 * the manifest chain (each names the sha256 of the one before; the newest must match the sync
 * state), checks that consecutive runs' ranges meet, that each run's count matched the API, that
 * no run recorded a retention gap or late events, and, with a public key, every signature.
 */
export async function verifyAuditArchive(
  dir: string,
  options: VerifyArchiveOptions = {},
): Promise<VerifyArchiveResult> {
  const key = options.publicKey === undefined ? undefined : loadPublicKey(options.publicKey);
  const problems: ArchiveProblem[] = [];
  const report = (kind: ArchiveProblemKind, file: string, message: string) =>
    problems.push({ kind, file, message: `${file}: ${message}` });
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR')
      throw new SvcError(`${dir} is not a directory`, 'config');
    throw error;
  });
  const names = entries
    .map((name) => ({ name, run: manifestRun(name) }))
    .filter((entry): entry is { name: string; run: number } => entry.run !== undefined)
    .sort((a, b) => a.run - b.run);
  const state = await readSyncState(dir).catch(() => undefined);
  const lastRun = Math.max(
    names.at(-1)?.run ?? 0,
    state?.lastManifest ? (manifestRun(state.lastManifest.name) ?? 0) : 0,
  );
  const byRun = new Map(names.map((entry) => [entry.run, entry.name]));
  let previous: { name: string; sha256: string; manifest: Manifest } | undefined;
  let events = 0;
  let runs = 0;
  for (let run = 1; run <= lastRun; run++) {
    const name = byRun.get(run);
    if (name === undefined) {
      report('missing-manifest', `manifest-${String(run).padStart(6, '0')}.json`, `missing (run ${run})`);
      previous = undefined;
      continue;
    }
    const bytes = await readFile(join(dir, name));
    let raw: Record<string, unknown>;
    let manifest: Manifest;
    try {
      raw = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      manifest = Manifest.parse(raw);
    } catch {
      report('bad-manifest', name, 'not a readable manifest');
      previous = undefined;
      continue;
    }
    runs += 1;
    const digest = sha256(bytes);
    if (manifest.run !== run) report('bad-manifest', name, `names run ${manifest.run}, expected ${run}`);
    if (run === 1 && manifest.previous !== null)
      report('broken-link', name, 'first run names a previous manifest');
    if (run > 1) {
      if (manifest.previous === null) report('broken-link', name, 'names no previous manifest');
      else if (
        previous &&
        (manifest.previous.name !== previous.name || manifest.previous.sha256 !== previous.sha256)
      )
        report(
          'broken-link',
          name,
          `does not match the sha256 of ${previous.name} (it was changed or replaced)`,
        );
      if (previous && previous.manifest.range.to !== manifest.range.from)
        report(
          'gap',
          name,
          `range starts at ${manifest.range.from} but run ${run - 1} ended at ${previous.manifest.range.to}`,
        );
    }
    if (key && !signatureValid(raw, key))
      report('bad-signature', name, 'signature missing or not made by the given key');
    if (!manifest.countMatches)
      report(
        'count-mismatch',
        name,
        `the API counted ${manifest.totalElements} events for ${manifest.query.from} to ${manifest.query.to}, the archive holds ${manifest.files.reduce((n, f) => n + f.events, 0) + manifest.alreadyArchived}`,
      );
    if (manifest.retentionGap)
      report(
        'incomplete',
        name,
        `retention gap: events between ${manifest.retentionGap.from} and ${manifest.retentionGap.to} may have expired before any run read them`,
      );
    for (const hole of manifest.lateEvents)
      report(
        'incomplete',
        name,
        `${(hole.apiCount ?? 0) - (hole.archivedCount ?? 0)} late events between ${hole.from} and ${hole.to} are not in the archive`,
      );
    for (const file of manifest.files) {
      events += file.events;
      const path = join(dir, file.name);
      let found: { sha256: string; bytes: number };
      try {
        found = await hashFile(path);
      } catch {
        report('missing-file', file.name, `missing (listed in ${name})`);
        continue;
      }
      if (found.sha256 !== file.sha256 || found.bytes !== file.bytes) {
        report('changed-file', file.name, `sha256 or size differs from ${name}`);
        continue;
      }
      const lines = await countLines(path, file.name.endsWith('.gz')).catch(() => -1);
      if (lines !== file.events)
        report('count-mismatch', file.name, `holds ${lines} events, ${name} lists ${file.events}`);
    }
    previous = { name, sha256: digest, manifest };
  }
  if (lastRun === 0)
    report('missing-manifest', '.', 'no manifest: not an archive written by sync, or an empty one');
  const head = state?.lastManifest;
  if (head && previous && previous.name === head.name && previous.sha256 !== head.sha256)
    report(
      'broken-link',
      head.name,
      'does not match the sha256 the sync state recorded (it was changed or replaced)',
    );
  return { ok: problems.length === 0, runs, events, problems };
}
