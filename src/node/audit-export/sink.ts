import type { ExportEvent, RawExportPage } from './pages.js';

/** One event as the export wrote it. */
export interface ExportedEvent {
  /** Its `id`, when that is a string (the last `id` of an object that repeats the key, as JSON.parse reads it). */
  id: string | undefined;
  /** Its `occurredAt`, when that is a string, read the same way. */
  occurredAt: string | undefined;
  /**
   * Its line without the line break: the bytes the output holds (before gzip). A view of the
   * page's buffer, which the export reuses: valid until the promise of `page` settles, so copy
   * what is kept.
   */
  bytes: Uint8Array;
}

/** What the output held before this run, when the export starts. */
export interface ExportHeld {
  /** Bytes of the output (gzip bytes with `gzip`). */
  bytes: number;
  /** Events in them. */
  events: number;
}

/**
 * Receives an export's events as it writes them, so a caller need not read the output back (the
 * audit sync writes its run from them). The export waits for each call's promise; one that
 * rejects stops the export like a failed page (the state stays resumable).
 */
export interface ExportSink {
  /**
   * Called once, before the first page: what the output held before this run. `{ bytes: 0,
   * events: 0 }` for a new export; a resumed one's checkpointed size (the output is cut back to it
   * first, and only the events after it are handed to `page`); for one the state records as
   * finished, the whole output (no page follows). Read those from the output.
   */
  start(held: ExportHeld): void | Promise<void>;
  /** The kept events of each page (duplicate ids dropped), in output order, once they are in the output. */
  page(events: readonly ExportedEvent[]): void | Promise<void>;
}

/** The events of a page the export keeps (all but `dropped`), as handed to {@link ExportSink.page}. */
export function keptEvents(page: RawExportPage, dropped: Set<number> | undefined): ExportedEvent[] {
  const { bytes, content } = page;
  const kept: ExportedEvent[] = [];
  for (let k = 0; k < content.length; k++) {
    if (dropped?.has(k)) continue;
    const event = content[k] as ExportEvent;
    const { id, occurredAt } = event;
    if ('text' in event) kept.push({ id, occurredAt, bytes: Buffer.from(event.text) });
    else if (bytes !== undefined)
      kept.push({ id, occurredAt, bytes: bytes.subarray(event.start, event.end) });
  }
  return kept;
}
