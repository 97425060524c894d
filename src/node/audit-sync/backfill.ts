import { SvcError } from '../../core/errors/error-classes.js';
import { dataLines, type ListedData } from '../audit-archive/data-lines.js';
import { MAX_MANIFEST_BYTES, readGaps } from '../audit-archive/gaps.js';
import { parseManifest } from '../audit-archive/manifest.js';
import type { PendingRun, SyncState } from '../audit-archive/state.js';
import { contentKey, idKey, type KnownEvents } from '../audit-archive/window.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { manifestRun } from '../audit-store/layout.js';
import { ArchiveFileError } from '../audit-store/regular-files.js';
import type { SyncApi, SyncOptions } from './options.js';

/** JSON of an archive file, or null when it is not JSON (verify reports such a file). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The lines of a listed data file within the caps of data-lines.ts (none when it is missing, as
 * verify reports); one that breaks a cap is a `bad_archive` SvcError naming it.
 */
async function* readableLines(store: ArchiveStore, file: ListedData): AsyncGenerator<string> {
  try {
    yield* dataLines(store, file);
  } catch (error) {
    if (!(error instanceof ArchiveFileError)) throw error;
    if (error.message === 'missing') return;
    throw new SvcError(
      `${store.describe(file.name)}: ${error.message}; svc audit verify names what is wrong`,
      'bad_archive',
    );
  }
}

/** Archived events of a span, by id key: what a backfill of that span must not write again. */
class SpanEvents implements KnownEvents {
  readonly byId = new Map<number, number>();
  content(id: number): number | undefined {
    return this.byId.get(id);
  }
}

/**
 * The events the archive's data files hold in `[fromMs, toMs]`: every file a readable manifest
 * lists whose events may fall in the span is read (regular files only, gunzipped when `.gz`).
 */
async function archivedIn(
  store: ArchiveStore,
  fromMs: number,
  toMs: number,
  signal: AbortSignal | undefined,
): Promise<SpanEvents> {
  const found = new SpanEvents();
  const manifests = (await store.list({ ...(signal && { signal }) }))
    .map((entry) => entry.name)
    .filter((name) => manifestRun(name) !== undefined);
  for (const name of manifests) {
    const bytes = await store.read(name, MAX_MANIFEST_BYTES).catch(() => undefined);
    const parsed = bytes && parseManifest(bytes.toString('utf8'));
    if (!parsed?.ok) continue;
    for (const file of parsed.manifest.files) {
      // Files list newest first: the first line is the newest event, the last the oldest.
      const newest = file.firstOccurredAt === null ? Number.NaN : Date.parse(file.firstOccurredAt);
      const oldest = file.lastOccurredAt === null ? Number.NaN : Date.parse(file.lastOccurredAt);
      if (newest < fromMs || oldest > toMs) continue;
      for await (const line of readableLines(store, file)) {
        const event = (parseJson(line) ?? {}) as { id?: unknown; occurredAt?: unknown };
        const occ = typeof event.occurredAt === 'string' ? Date.parse(event.occurredAt) : Number.NaN;
        if (typeof event.id === 'string' && occ >= fromMs && occ <= toMs)
          found.byId.set(idKey(event.id), contentKey(line));
      }
    }
  }
  return found;
}

/** The next backfill step: a run to carry out, a gap found expired, or nothing left to do. */
export interface BackfillStep {
  plan?: PendingRun;
  /** The archived events of the plan's range. */
  known: KnownEvents;
  /** A gap whose events the API no longer holds (fewer than archived plus missing). */
  expired?: string;
}

/**
 * Plans the backfill of the first open gap of late events the API may still hold (or, with
 * `pending`, only gathers what the interrupted one needs). The API's count of the gap's range
 * must reach the events archived there plus the missing ones; otherwise retention has passed
 * some of them and the gap is reported expired.
 */
export async function planBackfill(
  api: SyncApi,
  store: ArchiveStore,
  state: SyncState,
  options: SyncOptions,
  pending?: PendingRun,
): Promise<BackfillStep> {
  if (pending)
    return {
      known: await archivedIn(store, Date.parse(pending.from), Date.parse(pending.to), options.signal),
    };
  const { ledger } = await readGaps(store, new Set(state.expired), options.signal);
  const gap = ledger.open().find((g) => g.cause === 'late' && g.mayStillHold);
  if (!gap) return { known: new SpanEvents() };
  const known = await archivedIn(store, Date.parse(gap.from), Date.parse(gap.to), options.signal);
  const { signal } = options;
  const held = await api.listEvents({ from: gap.from, to: gap.to, pageSize: 1 }, { signal });
  if (held.totalElements < known.byId.size + (gap.events ?? 0)) return { known, expired: gap.id };
  const probe = await api.listEvents({ pageSize: 1 }, { signal });
  return {
    known,
    plan: {
      run: state.runs + 1,
      from: gap.from,
      to: gap.to,
      queryFrom: gap.from,
      serverNow: probe.to,
      gzip: Boolean(options.gzip),
      retentionGap: null,
      lateEvents: [],
      repairs: [gap.id],
    },
  };
}
