import { SvcError } from '../../core/errors/error-classes.js';
import { dataLines, type ListedData } from '../audit-archive/data-lines.js';
import { sha256 } from '../audit-archive/files.js';
import { MAX_MANIFEST_BYTES } from '../audit-archive/gaps.js';
import { type Manifest, parseManifest } from '../audit-archive/manifest.js';
import { emptySyncState, type SyncState } from '../audit-archive/state.js';
import { contentKey, idKey, WindowBuilder } from '../audit-archive/window.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { manifestRun } from '../audit-store/layout.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import { iso } from './options.js';
import { inRange } from './plan.js';

/**
 * Each line of a listed data file: its `occurredAt` (ms and as written), id and the line, read within the caps of
 * data-lines.ts; a file that breaks one, or a line that is not an event, is a `bad_archive`
 * SvcError naming the file (the state is not guessed from part of the data).
 */
async function* eventsOf(
  store: ArchiveStore,
  file: ListedData,
): AsyncGenerator<{ occ: number; id: string; at: string; line: string }> {
  const refused = (reason: string) =>
    new SvcError(
      `${store.describe(file.name)}: ${reason}; the sync state cannot be rebuilt from it`,
      'bad_archive',
    );
  try {
    for await (const line of dataLines(store, file)) {
      const event = parseEvent(line);
      if (!event) throw refused('holds a line that is not an event');
      yield { occ: Date.parse(event.occurredAt), id: event.id, at: event.occurredAt, line };
    }
  } catch (error) {
    if (error instanceof ArchiveFileError) throw refused(error.message);
    throw error;
  }
}

/** An event line's id and `occurredAt`; undefined when the line is not a JSON object holding both. */
function parseEvent(line: string): { id: string; occurredAt: string } | undefined {
  try {
    const event = JSON.parse(line) as { id?: unknown; occurredAt?: unknown } | null;
    if (typeof event?.id === 'string' && typeof event.occurredAt === 'string')
      return { id: event.id, occurredAt: event.occurredAt };
  } catch {}
  return undefined;
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
      for await (const event of eventsOf(store, file)) {
        const owner = ranges.slice(0, index + 1).findLast((r, i) => inRange(r, i, event.occ));
        if (owner) owner.events += 1;
        if (event.occ >= keepFromMs) fresh.push(event.occ, idKey(event.id), contentKey(event.line));
        if (event.occ > newestMs) {
          newest = { id: event.id, occurredAt: event.at };
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
