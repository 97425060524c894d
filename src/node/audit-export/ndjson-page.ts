import type { ExportEvent, RawExportPage } from './pages.js';

// A page's kept events as the NDJSON lines the export appends to its output.

/**
 * The lines of one page in a buffer reused across pages. Building a page as one string (and one
 * Buffer) would put large objects in the old generation on every page, which only a full GC
 * frees; reusing one buffer keeps the exporter's memory flat.
 */
export class LineBuffer {
  private buffer = Buffer.allocUnsafe(1 << 20);
  private length = 0;

  /** Starts a new page. */
  clear(): void {
    this.length = 0;
  }

  /** Appends `line` and a newline, UTF-8. */
  push(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8; make room first so nothing is cut.
    const needed = this.length + line.length * 3 + 1;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, needed));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(line, this.length, 'utf8');
    this.buffer[this.length++] = 0x0a;
  }

  /** Appends `bytes[start..end)` and a newline. */
  pushBytes(bytes: Uint8Array, start: number, end: number): void {
    const needed = this.length + (end - start) + 1;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, needed));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.buffer.set(bytes.subarray(start, end), this.length);
    this.length += end - start;
    this.buffer[this.length++] = 0x0a;
  }

  /** The bytes so far; valid until the next `clear` or `push`. */
  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/**
 * The page's kept events as NDJSON bytes. When every event is a byte range of the page, none was
 * dropped, and one byte (the comma) separates each from the next, the lines are made in place:
 * each separator, and the byte after the last event, becomes a line break, and the result is a
 * view of the page (no copy). Otherwise the lines are gathered in `lines`.
 */
export function pageLines(
  page: RawExportPage,
  dropped: Set<number> | undefined,
  lines: LineBuffer,
): Uint8Array {
  const { bytes, content } = page;
  if (bytes !== undefined && dropped === undefined && contiguous(content, bytes.length)) {
    for (const event of content) bytes[(event as { end: number }).end] = 0x0a;
    const first = content[0] as { start: number };
    const last = content[content.length - 1] as { end: number };
    return bytes.subarray(first.start, last.end + 1);
  }
  lines.clear();
  for (let k = 0; k < content.length; k++) {
    if (dropped?.has(k)) continue;
    const event = content[k] as ExportEvent;
    if ('text' in event) lines.push(event.text);
    else if (bytes !== undefined) lines.pushBytes(bytes, event.start, event.end);
  }
  return lines.view();
}

/** Whether the events are byte ranges that follow each other with exactly one byte between, the last one not at the end. */
function contiguous(content: readonly ExportEvent[], length: number): boolean {
  let previousEnd = -1;
  for (const event of content) {
    if ('text' in event) return false;
    if (previousEnd >= 0 && event.start !== previousEnd + 1) return false;
    previousEnd = event.end;
  }
  return previousEnd >= 0 && previousEnd < length;
}
