import { AuditPageEnvelope, RawEventPageSchema } from '../../audit/schemas.js';
import { SvcError } from '../../core/errors/error-classes.js';
import { parseResponse } from '../../core/schema.js';
import { LineBreaks } from './line-breaks.js';
import { type RawEvent, scanEventPage } from './raw-page.js';

// The pages `exportAuditEvents` hands to the exporter (export.ts), loaded with it at the call.

/** An event's `id` and `occurredAt`, when they are strings. */
interface EventKeys {
  id: string | undefined;
  occurredAt: string | undefined;
}

/** One event for the exporter: its bytes as received (a range of the page's `bytes`), or its text when the page had to be parsed. */
export type ExportEvent = (EventKeys & { start: number; end: number }) | (EventKeys & { text: string });

/** A page as the exporter needs it: each event exactly as received, with its id. */
export interface RawExportPage {
  /**
   * The page as received, which the events' byte ranges point into. The exporter owns it once
   * the fetcher returns it: it may overwrite the separators between events with line breaks.
   */
  bytes?: Uint8Array;
  content: ExportEvent[];
  totalElements: number;
  nextCursor: string | null;
}

/** A page for the exporter: events as received; a body the scanner cannot read is parsed instead. */
export function rawExportPage(received: Uint8Array): RawExportPage {
  // A Buffer view (no copy): its native searches are what the scan and the exporter use.
  const bytes = Buffer.isBuffer(received)
    ? received
    : Buffer.from(received.buffer, received.byteOffset, received.byteLength);
  const scanned = scanEventPage(bytes);
  if (scanned) {
    const envelope = parseResponse(AuditPageEnvelope(), scanned.envelope, 'audit log page');
    const content: ExportEvent[] = scanned.events;
    const breaks = new LineBreaks(bytes);
    for (let k = 0; k < content.length; k++) {
      const { start, end, id, occurredAt } = scanned.events[k] as RawEvent;
      // A pretty-printed event is compacted, so NDJSON keeps one event per line.
      if (breaks.within(start, end)) {
        content[k] = { id, occurredAt, text: JSON.stringify(JSON.parse(bytes.toString('utf8', start, end))) };
      }
    }
    return { bytes, content, totalElements: envelope.totalElements, nextCursor: envelope.nextCursor };
  }
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (error) {
    throw new SvcError('Response is not JSON: GET /platform/v1/events', 'bad_response', { cause: error });
  }
  const page = parseResponse(RawEventPageSchema(), data, 'audit log page');
  const content = page.content.map((event): ExportEvent => {
    const { id, occurredAt } = (event ?? {}) as { id?: unknown; occurredAt?: unknown };
    return {
      text: JSON.stringify(event),
      id: typeof id === 'string' ? id : undefined,
      occurredAt: typeof occurredAt === 'string' ? occurredAt : undefined,
    };
  });
  return { content, totalElements: page.totalElements, nextCursor: page.nextCursor };
}

/** Page buffers by slot, each reused and grown (with some room) when a page is larger than it. */
export function pageBuffers(): (slot: number, size: number) => Buffer {
  const buffers: Buffer[] = [];
  return (slot, size) => {
    let buffer = buffers[slot];
    if (buffer === undefined || buffer.length < size) {
      buffer = Buffer.allocUnsafeSlow(size + (size >> 3));
      buffers[slot] = buffer;
    }
    return buffer;
  };
}
