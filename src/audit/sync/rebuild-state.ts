import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { manifestRun } from '../archive/fields.js';
import { MAX_MANIFEST_BYTES } from '../archive/gaps.js';
import { type Manifest, parseManifest } from '../archive/manifest.js';
import { emptySyncState, type SyncState } from '../archive/state.js';
import { contentKey, idKey, WindowBuilder } from '../archive/window.js';
import { sha256 } from '../archive/writes.js';
import type { ArchiveStore } from '../store/archive-store.js';
import { iso } from './options.js';
import { inRange } from './plan.js';

/** Each line of a data object: its `occurredAt` (ms), id and the line. */
async function* eventsOf(
  store: ArchiveStore,
  name: string,
): AsyncGenerator<{ occ: number; id: string; line: string }> {
  const raw = await store.readStream(name);
  const input: Readable = name.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  try {
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line === '') continue;
      const event = JSON.parse(line) as { id: string; occurredAt: string };
      yield { occ: Date.parse(event.occurredAt), id: event.id, line };
    }
  } finally {
    raw.destroy();
    input.destroy();
  }
}

/**
 * The sync state of an archive whose state object is missing, rebuilt from its manifests and data
 * as the runs left it: the head, the watermark, each regular run's range and count, the newest
 * event and the overlap window (`overlapMs` before the watermark). Backfill runs move only the
 * head, as they do when they run. What only the state knew is lost: acknowledgements not yet in a
 * manifest, and gaps a backfill found expired (the next backfill finds them again). Undefined
 * when the archive has no readable manifest; a chain that cannot be read whole is left to
 * `verify` (undefined too, so the sync refuses to guess).
 */
export async function rebuildSyncState(
  store: ArchiveStore,
  overlapMs: number,
  /** Stops the listing with an `AbortError` once fired. Default: none. */
  signal?: AbortSignal,
): Promise<SyncState | undefined> {
  // The manifests listed, never a walk of run numbers: a gap in them (a run named far past the
  // last) gives no state at all, so the sync refuses and verify names the runs missing.
  const names = (await store.list({ ...(signal && { signal }) }))
    .map((object) => ({ name: object.name, run: manifestRun(object.name) }))
    .filter((entry): entry is { name: string; run: number } => entry.run !== undefined)
    .sort((a, b) => a.run - b.run);
  if (names.length === 0 || names.some((entry, index) => entry.run !== index + 1)) return undefined;
  const manifests: Manifest[] = [];
  let head: { name: string; sha256: string } | null = null;
  for (const { name } of names) {
    const bytes = await store.read(name, MAX_MANIFEST_BYTES).catch(() => undefined);
    const parsed = bytes ? parseManifest(bytes.toString('utf8')) : undefined;
    if (!bytes || !parsed?.ok) return undefined;
    manifests.push(parsed.manifest);
    head = { name, sha256: sha256(bytes) };
  }
  const regular = manifests.filter((manifest) => manifest.kind !== 'backfill');
  const state = emptySyncState();
  const ranges = regular.map((manifest) => ({ from: manifest.range.from, to: manifest.range.to, events: 0 }));
  const watermark = regular.at(-1)?.range.to ?? null;
  const keepFromMs = watermark === null ? Number.NEGATIVE_INFINITY : Date.parse(watermark) - overlapMs;
  const fresh = new WindowBuilder();
  let newest: SyncState['newest'] = null;
  let newestMs = Number.NEGATIVE_INFINITY;
  for (const [index, manifest] of regular.entries()) {
    // Late events reported by this run were taken as known from then on (as the run's tally did).
    for (const hole of manifest.lateEvents) {
      const occ = Date.parse(hole.to);
      const range = ranges.slice(0, index).find((r, i) => inRange(r, i, occ));
      if (range) range.events += (hole.apiCount ?? 0) - (hole.archivedCount ?? 0);
    }
    for (const file of manifest.files) {
      for await (const event of eventsOf(store, file.name)) {
        const owner = ranges.slice(0, index + 1).findLast((r, i) => inRange(r, i, event.occ));
        if (owner) owner.events += 1;
        if (event.occ >= keepFromMs) fresh.push(event.occ, idKey(event.id), contentKey(event.line));
        if (event.occ > newestMs) {
          newest = { id: event.id, occurredAt: JSON.parse(event.line).occurredAt as string };
          newestMs = event.occ;
        }
      }
    }
  }
  return {
    ...state,
    runs: names.length,
    watermark,
    lastManifest: head,
    window: watermark === null ? '' : fresh.build(keepFromMs).encode(),
    recentFrom: watermark === null ? null : iso(keepFromMs),
    newest,
    ranges,
  };
}
