import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { DEFAULT_FILE_MODE } from '../core/output-file.js';
import { dataFileName, type ManifestFile } from './manifest.js';
import { hashFile, TMP_SUFFIX } from './sync-files.js';
import { iso } from './sync-options.js';
import { inRange } from './sync-plan.js';
import type { PendingRun, SyncState } from './sync-state.js';

/** The run's file as listed in the manifest, and how many events earlier runs held already. */
export interface Written {
  file: ManifestFile;
  alreadyArchived: number;
}

/**
 * Copies the export's lines to the run's file, leaving out ids the archive holds already, and
 * hands each written event to `onEvent`. The output depends only on the export and the state, so
 * a rerun writes the same bytes.
 */
export async function writeRunFile(
  dir: string,
  partPath: string,
  plan: PendingRun,
  known: ReadonlySet<string>,
  onEvent: (id: string, occurredAt: string) => void,
  /** Mode of the run's file. Default 0600. */
  mode = DEFAULT_FILE_MODE,
): Promise<Written> {
  const name = dataFileName(plan.run, plan.gzip);
  const path = join(dir, name);
  const tmp = `${path}${TMP_SUFFIX}`;
  let count = 0;
  let alreadyArchived = 0;
  let first: string | null = null;
  let last: string | null = null;
  async function* lines() {
    const reader = createInterface({
      input: createReadStream(partPath),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of reader) {
      if (line === '') continue;
      const event = JSON.parse(line) as { id?: unknown; occurredAt?: unknown };
      const id = typeof event.id === 'string' ? event.id : undefined;
      const occurredAt = typeof event.occurredAt === 'string' ? event.occurredAt : null;
      if (id !== undefined && known.has(id)) {
        alreadyArchived += 1;
        continue;
      }
      count += 1;
      first ??= occurredAt;
      last = occurredAt;
      if (id !== undefined && occurredAt !== null) onEvent(id, occurredAt);
      yield `${line}\n`;
    }
  }
  const out = createWriteStream(tmp, { flags: 'wx', mode });
  if (plan.gzip) await pipeline(lines, createGzip(), out);
  else await pipeline(lines, out);
  const handle = await open(tmp, 'r+');
  try {
    await handle.chmod(mode);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
  const { sha256: digest, bytes } = await hashFile(path);
  return {
    file: { name, bytes, sha256: digest, events: count, firstOccurredAt: first, lastOccurredAt: last },
    alreadyArchived,
  };
}

/** Builds the state after a run from the events it writes: ids of the new overlap window, counts per range. */
export class RunTally {
  private readonly ranges: SyncState['ranges'];
  private readonly current: SyncState['ranges'][number];
  private readonly fromMs: number;
  private readonly keepFromMs: number;
  private readonly fresh: SyncState['recent'] = [];
  private newest: SyncState['newest'];

  constructor(
    private readonly state: SyncState,
    private readonly plan: PendingRun,
    overlapMs: number,
  ) {
    this.ranges = state.ranges.map((range) => ({ ...range }));
    for (const hole of plan.lateEvents) {
      // Reported once, in this run's manifest: the missing events are taken as known from now on.
      const occ = Date.parse(hole.to);
      const range = this.ranges.find((r, i) => inRange(r, i, occ));
      if (range) range.events += (hole.apiCount ?? 0) - (hole.archivedCount ?? 0);
    }
    this.current = { from: plan.from, to: plan.to, events: 0 };
    this.fromMs = Date.parse(plan.from);
    this.keepFromMs = Date.parse(plan.to) - overlapMs;
    this.newest = state.newest;
  }

  add(id: string, occurredAt: string): void {
    const occ = Date.parse(occurredAt);
    if (occ >= this.keepFromMs) this.fresh.push({ id, occurredAt });
    if (!this.newest || occ > Date.parse(this.newest.occurredAt)) this.newest = { id, occurredAt };
    if (occ > this.fromMs || (this.state.runs === 0 && occ >= this.fromMs)) {
      this.current.events += 1;
      return;
    }
    // A late event inside the overlap: it counts for the earlier run whose range holds it.
    const owner = this.ranges.findLast(
      (r, i) =>
        occ <= Date.parse(r.to) && (occ > Date.parse(r.from) || (i === 0 && occ >= Date.parse(r.from))),
    );
    if (owner) owner.events += 1;
  }

  finish(manifest: { name: string; sha256: string }): SyncState {
    const recent = [
      ...this.fresh,
      ...this.state.recent.filter((e) => Date.parse(e.occurredAt) >= this.keepFromMs),
    ];
    return {
      ...this.state,
      runs: this.plan.run,
      watermark: this.plan.to,
      lastManifest: manifest,
      recent,
      // Ids older than the previous window were forgotten: the known window cannot grow backwards.
      recentFrom: iso(
        Math.max(
          this.keepFromMs,
          this.state.recentFrom === null ? -Infinity : Date.parse(this.state.recentFrom),
        ),
      ),
      newest: this.newest,
      ranges: [...this.ranges, this.current],
      pending: null,
    };
  }
}
