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
