import { AbortError } from '../core/errors/error-classes.js';
import { defaultSleep } from '../core/http.js';
import type { PatienceOptions } from '../core/patience.js';
import { followCursors } from './paginate.js';
import type { ListEventsParams } from './query.js';
import type { AuditEvent, AuditEventPage } from './schemas.js';

/** Options of `client.audit.tail`; a throttled (429) or failing (5xx) poll is retried for `retryForMs` (default 2 minutes). */
export interface TailOptions extends PatienceOptions {
  /** Pause between polls, ms. Default 5000. */
  intervalMs?: number;
  /**
   * Each poll re-reads this far before the end of the previous one, ms, so events recorded late
   * are not missed; already seen ids are dropped. Default 60000.
   */
  overlapMs?: number;
  /** Deliver the events since this time first. Default: only events that arrive after the start. */
  since?: string | Date;
  /** Events per request, 1 to 1000. Default 1000. */
  pageSize?: number;
  /** Stop after this many polls. Default: until the signal fires. */
  maxPolls?: number;
  /** Most ids remembered for skipping duplicates; the oldest are forgotten first. Default 100000. */
  maxRememberedIds?: number;
  /** Stops the tail; the iteration ends without an error. */
  signal?: AbortSignal;
  /** Sleep function (tests pass their own). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Reads one page of the audit log. */
export type PageReader = (
  params: ListEventsParams,
  signal: AbortSignal | undefined,
) => Promise<AuditEventPage>;

/**
 * Follows the audit log: polls, reads every page of `[previous end - overlap, server now]`, and
 * yields the events not seen before, oldest first. Memory is bounded: ids older than the next
 * poll's window are forgotten, and at most `maxRememberedIds` are kept.
 */
export async function* tailEvents(
  readPage: PageReader,
  options: TailOptions = {},
): AsyncGenerator<AuditEvent> {
  const interval = options.intervalMs ?? 5000;
  const overlap = options.overlapMs ?? 60_000;
  const pageSize = options.pageSize ?? 1000;
  const maxIds = options.maxRememberedIds ?? 100_000;
  const sleep = options.sleep ?? defaultSleep;
  const { signal } = options;
  const seen = new Map<string, number>();
  const remember = (event: AuditEvent) => {
    seen.set(event.id, Date.parse(event.occurredAt));
    while (seen.size > maxIds) seen.delete(seen.keys().next().value as string);
  };

  /** Every event of one window not seen before, oldest first; returns the window's end. */
  const readWindow = async (from: string | undefined): Promise<{ to: string; fresh: AuditEvent[] }> => {
    let to: string | undefined;
    const fresh: AuditEvent[] = [];
    const pages = followCursors((cursor) => readPage({ from, to, pageSize, cursor }, signal));
    for await (const page of pages) {
      to ??= page.to;
      from ??= page.from;
      for (const event of page.content) {
        if (seen.has(event.id)) continue;
        remember(event);
        fresh.push(event);
      }
    }
    return { to: to as string, fresh: fresh.reverse() };
  };

  try {
    let windowEnd: string;
    if (options.since !== undefined) {
      const since = options.since instanceof Date ? options.since.toISOString() : options.since;
      const first = await readWindow(since);
      yield* first.fresh;
      windowEnd = first.to;
    } else {
      // Learn the server's now, then mark the overlap window as seen without delivering it.
      const probe = await readPage({ pageSize: 1 }, signal);
      windowEnd = probe.to;
      await readWindow(new Date(Date.parse(windowEnd) - overlap).toISOString());
    }
    for (let poll = 1; options.maxPolls === undefined || poll <= options.maxPolls; poll++) {
      await sleep(interval, signal);
      const from = Date.parse(windowEnd) - overlap;
      const next = await readWindow(new Date(from).toISOString());
      yield* next.fresh;
      windowEnd = next.to;
      // Ids older than the next window can never come back.
      const horizon = Date.parse(windowEnd) - overlap;
      for (const [id, occ] of seen) if (occ < horizon) seen.delete(id);
    }
  } catch (error) {
    if (error instanceof AbortError && signal?.aborted) return;
    throw error;
  }
}
