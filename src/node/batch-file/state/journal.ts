import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchRowResult } from '../../../tax/batch/types.js';

/** What a completion sets on its row: the result's id, outcome and registry details. */
export type OutcomeSummary = Pick<
  BatchRowResult,
  | 'validationResultId'
  | 'outcome'
  | 'provider'
  | 'registryCompanyName'
  | 'companyNameMatch'
  | 'addressMatch'
  | 'checkedAt'
>;

/** How a waiting row ended: completed with its result's details, or failed with a reason. */
export type RowOutcome =
  | ({ status: 'completed' } & OutcomeSummary)
  | { status: 'failed'; code: string; message: string };

/** Bytes gathered before they are written to the journal file. */
const WRITE_BATCH = 256 * 1024;

/**
 * A private scratch folder (0700, random name) removed by `remove`, or by an `exit` hook should
 * the process end first. Holds the outcome journal (and a stream output's draft).
 */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'svc-batch-wait-'));
  private readonly onExit = () => rmSync(this.dir, { recursive: true, force: true });

  constructor() {
    process.on('exit', this.onExit);
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  remove(): void {
    process.off('exit', this.onExit);
    this.onExit();
  }
}

/**
 * The outcomes that arrived, one JSON line per row in a private file, with the offset and length
 * of each row's line in two typed arrays (12 bytes a row): a million outcomes cost ~12 MB of
 * memory instead of a million objects. Read back in row order by the final merge. `T`: what is
 * kept per row (default a {@link RowOutcome}; a resumed run's resent rows keep their whole result).
 */
export class OutcomeJournal<T extends object = RowOutcome> {
  private readonly fd: number;
  private offsets: Float64Array;
  private lengths: Uint32Array;
  private gathered: Buffer[] = [];
  private gatheredBytes = 0;
  private written = 0;
  private count = 0;

  constructor(
    readonly path: string,
    /** Rows expected (grows when more come). */
    rows: number,
  ) {
    this.fd = openSync(path, 'wx+', 0o600);
    this.offsets = new Float64Array(rows + 2);
    this.lengths = new Uint32Array(rows + 2);
  }

  /** Outcomes recorded. */
  get size(): number {
    return this.count;
  }

  /** Records the outcome of `row` (the first one wins: a row is never answered twice). */
  add(row: number, summary: T): boolean {
    if (row >= this.lengths.length) this.grow(row);
    if (this.lengths[row] !== 0) return false;
    const bytes = Buffer.from(JSON.stringify(summary));
    this.offsets[row] = this.written + this.gatheredBytes;
    this.lengths[row] = bytes.length;
    this.gathered.push(bytes);
    this.gatheredBytes += bytes.length;
    this.count += 1;
    if (this.gatheredBytes >= WRITE_BATCH) this.flush();
    return true;
  }

  has(row: number): boolean {
    return row < this.lengths.length && this.lengths[row] !== 0;
  }

  /** The outcome of `row`, if one was recorded. */
  get(row: number): T | undefined {
    if (!this.has(row)) return undefined;
    this.flush();
    const buffer = Buffer.allocUnsafe(this.lengths[row] as number);
    readSync(this.fd, buffer, 0, buffer.length, this.offsets[row] as number);
    return JSON.parse(buffer.toString('utf8')) as T;
  }

  private flush(): void {
    if (this.gatheredBytes === 0) return;
    const data = Buffer.concat(this.gathered, this.gatheredBytes);
    let done = 0;
    while (done < data.length)
      done += writeSync(this.fd, data, done, data.length - done, this.written + done);
    this.written += data.length;
    this.gathered = [];
    this.gatheredBytes = 0;
  }

  private grow(row: number): void {
    const size = Math.max(row + 1, this.lengths.length * 2);
    const offsets = new Float64Array(size);
    offsets.set(this.offsets);
    const lengths = new Uint32Array(size);
    lengths.set(this.lengths);
    this.offsets = offsets;
    this.lengths = lengths;
  }

  close(): void {
    closeSync(this.fd);
  }
}
