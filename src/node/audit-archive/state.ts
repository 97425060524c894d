import * as z from 'zod/mini';
import { CheckpointError } from '../../core/errors/error-classes.js';
import { lazySchema } from '../../core/lazy-schema.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { SYNC_STATE_FILE } from '../audit-store/layout.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import { parseStateText } from '../fs/checkpoint.js';
import { ArchiveStamp, GapId, ManifestFileName, Sha256Hex } from './fields.js';
import { EventWindow, idKey } from './window.js';

/**
 * A state larger than this (64 MiB) is not one sync wrote, refused from the object's size before
 * it is read: far under V8's longest string (0x1fffffe8 characters), which a state is parsed as.
 * A state of 1,000 runs takes 117 KB, plus 18.7 bytes per event of the overlap window (18.8 MB
 * with 1,000,000 events in it): room for some 3,500,000 events in the overlap window.
 */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

/** A span the archive reported as not whole (retention gap or events that came too late). */
export const ArchiveHoleSchema = lazySchema(() =>
  z.object({
    from: ArchiveStamp(),
    to: ArchiveStamp(),
    /** Events the API holds in the span, when known. */
    apiCount: z.nullable(z.number().check(z.int()).check(z.gte(0))),
    /** Events the archive holds in the span, when known. */
    archivedCount: z.nullable(z.number().check(z.int()).check(z.gte(0))),
  }),
);
/** A span the archive reported as not whole (retention gap or events that came too late). */
export type ArchiveHole = z.infer<ReturnType<typeof ArchiveHoleSchema>>;

/** A run decided but not finished: a rerun repeats it with exactly these values. */
export const PendingRunSchema = lazySchema(() =>
  z.object({
    run: z.number().check(z.int()).check(z.gt(0)),
    /** Range the run covers: after `from` (from the first run: at or after) up to and including `to`. */
    from: ArchiveStamp(),
    to: ArchiveStamp(),
    /** Start of the range asked from the API: `from` minus the overlap. */
    queryFrom: ArchiveStamp(),
    /** The server's now, learnt from the probe page. */
    serverNow: ArchiveStamp(),
    gzip: z.boolean(),
    retentionGap: z.nullable(ArchiveHoleSchema()),
    lateEvents: z.array(ArchiveHoleSchema()),
    /** A backfill run: the gaps it fetches again (its range is theirs). Absent: a regular run. */
    repairs: z.optional(z.array(GapId())),
  }),
);
export type PendingRun = z.infer<ReturnType<typeof PendingRunSchema>>;

/** What a sync directory remembers between runs. */
export const SyncStateSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    /** Runs finished. */
    runs: z.number().check(z.int()).check(z.gte(0)),
    /** End of the last run's range (inclusive): the next run starts after it. */
    watermark: z.nullable(ArchiveStamp()),
    /** File name and sha256 of the newest manifest: the head of the chain. */
    lastManifest: z.nullable(z.object({ name: ManifestFileName(), sha256: Sha256Hex() })),
    /** Before version 0.2: the ids of the overlap window one by one; read once, then kept in `window`. */
    recent: z.optional(z.array(z.object({ id: z.string(), occurredAt: ArchiveStamp() }))),
    /**
     * The archived events of the overlap window (from `recentFrom` to the watermark), 14 bytes each
     * in base64: see {@link EventWindow}. About 18.7 MB for 1,000,000 events.
     */
    window: z._default(z.string(), ''),
    /** Gaps acknowledged with `svc audit gaps ack`, recorded in the next manifest. */
    acks: z._default(z.array(z.object({ gap: GapId(), reason: z.string(), at: ArchiveStamp() })), []),
    /** Gaps a backfill found the API no longer holds (advice for `svc audit gaps`). */
    expired: z._default(z.array(GapId()), []),
    /**
     * Start of the window `recent` covers. A later run never re-reads before it: with a longer
     * overlap it would meet archived events whose ids are no longer known, and write them again.
     */
    recentFrom: z._default(z.nullable(ArchiveStamp()), null),
    /** Newest archived event: the retention check asks whether the API still returns it. */
    newest: z.nullable(z.object({ id: z.string(), occurredAt: ArchiveStamp() })),
    /** Per run: its range and how many archived events have an `occurredAt` inside it. */
    ranges: z.array(
      z.object({
        from: ArchiveStamp(),
        to: ArchiveStamp(),
        events: z.number().check(z.int()).check(z.gte(0)),
      }),
    ),
    pending: z.nullable(PendingRunSchema()),
  }),
);
export type SyncState = z.output<ReturnType<typeof SyncStateSchema>>;

/** The state of a directory that never ran a sync. */
export const emptySyncState = (): SyncState => ({
  version: 1,
  runs: 0,
  watermark: null,
  lastManifest: null,
  window: '',
  acks: [],
  expired: [],
  recentFrom: null,
  newest: null,
  ranges: [],
  pending: null,
});

/**
 * Reads the sync state of an archive; undefined when there is none, a `bad_state` CheckpointError
 * when it is not one: larger than {@link MAX_STATE_BYTES} (refused before it is read), not a
 * regular file, not JSON or not a state.
 */
export async function readSyncState(store: ArchiveStore): Promise<SyncState | undefined> {
  const where = store.describe(SYNC_STATE_FILE);
  let text: string;
  try {
    text = (await store.read(SYNC_STATE_FILE, MAX_STATE_BYTES)).toString('utf8');
  } catch (error) {
    if (!(error instanceof ArchiveFileError)) throw error;
    if (error.message === 'missing') return undefined;
    throw new CheckpointError(
      `${where}: ${error.message}, not a sync state; remove it and the next sync rebuilds it from the manifests`,
      'bad_state',
    );
  }
  return parseStateText(text, SyncStateSchema(), {
    notJson: `${where} is not valid JSON; restore it from a backup`,
    notState: `${where} is not a sync state; restore it from a backup`,
  });
}

/** Replaces the sync state of an archive whole (in a folder always private, 0600: it names the archive's head). */
export async function writeSyncState(store: ArchiveStore, state: SyncState): Promise<void> {
  await store.replace(SYNC_STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
}

/** The overlap window of a state (a state of an older version: its id list, content unknown). */
export function stateWindow(state: SyncState): EventWindow {
  const startMs = state.recentFrom === null ? 0 : Date.parse(state.recentFrom);
  if (!state.recent?.length) return EventWindow.decode(startMs, state.window);
  // Content key 0: unknown, so the event is taken as the same whatever comes with its id.
  const legacy = state.recent.map((e) => ({ occ: Date.parse(e.occurredAt), id: idKey(e.id), content: 0 }));
  return EventWindow.of(startMs, [...EventWindow.decode(startMs, state.window).events(), ...legacy]);
}
