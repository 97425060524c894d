import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { replaceFileAtomic } from '../../fs/atomic-file.js';
import { DurableOutput } from '../../fs/output-file.js';
import type { Scratch } from '../state/journal.js';
import { writeWorkbook } from '../xlsx/write.js';
import type { RowOutput } from './format.js';

/** The results of the sending pass, as kept for the rewrite with outcomes: a file and how many of its bytes count. */
export interface Draft {
  path: string;
  bytes: number;
}

/**
 * Where a file run's results go, whatever their kind (CSV, NDJSON, workbook) or destination (a
 * file, a device, a stream, nowhere): the run writes lines through this and never asks which.
 */
export interface RowWriter {
  /** How a row's line is written: format, delimiter, BOM. */
  readonly encoder: RowOutput;
  /** The results file that checkpoints sync and the state file measures; none for a stream. */
  readonly file: DurableOutput | undefined;
  /** Whether a state file can describe the results, to resume them: a regular file, not a device or stream. */
  readonly resumable: boolean;
  /** Whether the sending pass's lines are kept (in the file or a draft) to be rewritten with outcomes. */
  readonly keepsLines: boolean;
  /**
   * For a run that waits for outcomes: the sending pass writes to a draft in `scratch` unless the
   * results file can be rewritten in place. Called before {@link RowWriter.begin}.
   */
  useDraft(scratch: Scratch): Promise<void>;
  /** Starts new results (the CSV header); not called when a run resumes. */
  begin(): Promise<void>;
  /** Appends one segment's lines (built with {@link RowWriter.encoder}). */
  write(text: string): Promise<void>;
  /**
   * Replaces the sending pass's lines with `merge`'s (the outcomes joined). Resolves to the new
   * size of a results file rewritten in place (for the state file), else undefined.
   */
  rewrite(merge: (draft: Draft) => Promise<AsyncIterable<string>>): Promise<number | undefined>;
  /** Ends the results (a workbook is written now); resolves to the workbook cells that had characters replaced. */
  finish(): Promise<number>;
  /** Closes what is open; never throws (for the end of a run, failed or not). */
  close(): Promise<void>;
}

/** Where the draft of a run that waits is kept: private, in the run's scratch folder. */
const openDraft = (scratch: Scratch) => DurableOutput.open(scratch.path('draft'), undefined, { mode: 0o600 });

/** Results to a file (CSV or NDJSON); a device such as `/dev/stdout` is written in order, never rewritten. */
class FileRowWriter implements RowWriter {
  readonly keepsLines = true;
  private draft: DurableOutput | undefined;

  constructor(
    readonly encoder: RowOutput,
    readonly file: DurableOutput,
    protected readonly mode: number,
  ) {}

  get resumable(): boolean {
    return this.file.seekable;
  }

  private get lines(): DurableOutput {
    return this.draft ?? this.file;
  }

  async useDraft(scratch: Scratch): Promise<void> {
    if (!this.file.seekable) this.draft = await openDraft(scratch);
  }

  async begin(): Promise<void> {
    const header = this.encoder.header();
    if (header) await this.lines.append(header);
  }

  write(text: string): Promise<void> {
    return this.lines.append(text);
  }

  async rewrite(merge: (draft: Draft) => Promise<AsyncIterable<string>>): Promise<number | undefined> {
    const lines = this.lines;
    await lines.flush();
    const merged = await merge({ path: lines.path, bytes: lines.size });
    if (this.draft) {
      for await (const chunk of merged) await this.file.append(chunk);
      return undefined;
    }
    await this.file.close();
    let bytes = 0;
    const counted = async function* () {
      for await (const chunk of merged) {
        bytes += Buffer.byteLength(chunk);
        yield chunk;
      }
    };
    await replaceFileAtomic(this.file.path, counted(), { mode: this.mode });
    return bytes;
  }

  async finish(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    await this.draft?.close().catch(() => {});
    await this.file.close().catch(() => {});
  }
}

/**
 * A workbook: the run appends to a rows file beside it (resumable like any results file, see
 * `RowFormat` `rows`) and the workbook is written from that file when the run ends.
 */
class WorkbookRowWriter extends FileRowWriter {
  constructor(
    encoder: RowOutput,
    rowsFile: DurableOutput,
    mode: number,
    private readonly workbookPath: string,
  ) {
    super(encoder, rowsFile, mode);
  }

  override async finish(): Promise<number> {
    await this.file.close();
    return writeWorkbook(this.file.path, this.workbookPath, this.encoder.inputHeader, this.mode);
  }
}

/** Results to a stream as they come (nothing kept, no resume), or nowhere when there is no stream. */
class StreamRowWriter implements RowWriter {
  readonly file = undefined;
  readonly resumable = false;
  private draft: DurableOutput | undefined;

  constructor(
    readonly encoder: RowOutput,
    private readonly stream: Writable | undefined,
  ) {}

  get keepsLines(): boolean {
    return this.draft !== undefined;
  }

  async useDraft(scratch: Scratch): Promise<void> {
    if (this.stream) this.draft = await openDraft(scratch);
  }

  async begin(): Promise<void> {
    const header = this.encoder.header();
    if (header) await this.write(header);
  }

  async write(text: string): Promise<void> {
    if (this.draft) await this.draft.append(text);
    else this.stream?.write(text);
  }

  async rewrite(merge: (draft: Draft) => Promise<AsyncIterable<string>>): Promise<undefined> {
    const { draft, stream } = this;
    if (!draft || !stream) return undefined;
    await draft.flush();
    const merged = await merge({ path: draft.path, bytes: draft.size });
    for await (const chunk of merged) if (!stream.write(chunk)) await once(stream, 'drain');
    return undefined;
  }

  async finish(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    await this.draft?.close().catch(() => {});
  }
}

/** Where a run's results go, as the check phase resolved them. */
export interface ResultsTarget {
  /** The results file the run appends to (for a workbook, the rows file beside it). */
  outPath: string | undefined;
  /** The workbook written from the rows file at the end (`.xlsx` outputs). */
  workbookPath: string | undefined;
  /** A stream output (no state, no resume). */
  stream: Writable | undefined;
}

/**
 * The results writer of a run as its plan says: to `file` (the plan's `outPath`, opened by the
 * caller, continued when resuming), a workbook written from that file at the end, a stream, or
 * none. `mode` is that of the files it creates (a workbook, a rewritten results file).
 */
export function rowWriter(
  plan: ResultsTarget,
  encoder: RowOutput,
  file: DurableOutput | undefined,
  mode: number,
): RowWriter {
  if (!file) return new StreamRowWriter(encoder, plan.stream);
  return plan.workbookPath
    ? new WorkbookRowWriter(encoder, file, mode, plan.workbookPath)
    : new FileRowWriter(encoder, file, mode);
}
