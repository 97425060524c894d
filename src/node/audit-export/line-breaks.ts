/**
 * Finds the line breaks (LF, CR) of a page with native searches, so a compact page (none at all)
 * costs two searches. A line break can only be whitespace between tokens (inside a string it must
 * be escaped), so an event holding one was pretty-printed.
 */
export class LineBreaks {
  /** The next LF and CR at or after the last `start` asked about; -1 once there is none. */
  private lf: number;
  private cr: number;

  constructor(private readonly t: Buffer) {
    this.lf = t.indexOf(10);
    this.cr = t.indexOf(13);
  }

  /** Whether `t[start..end)` holds a line break. Ask in ascending order of `start`. */
  within(start: number, end: number): boolean {
    if (this.lf >= 0 && this.lf < start) this.lf = this.t.indexOf(10, start);
    if (this.cr >= 0 && this.cr < start) this.cr = this.t.indexOf(13, start);
    return (this.lf >= 0 && this.lf < end) || (this.cr >= 0 && this.cr < end);
  }
}
