import type { RequestOptions } from '../../core/http.js';
import type { ReadableLike, WritableLike } from '../../core/node-shapes.js';
import type { BatchRowResult, RunBatchOptions } from '../../tax/batch/types.js';
import type { SyncPolicy } from '../fs/checkpoint.js';

/** What the waiting phase reports while it runs. */
export type WaitProgress =
  | {
      type: 'outcomes';
      /** Outcomes that arrived of those awaited when the waiting began. */
      done: number;
      awaited: number;
      /** Outcomes per second since the waiting began. */
      perSecond: number;
    }
  | {
      type: 'reconciling';
      /** Rows asked about through their idempotency keys. */
      rows: number;
      /** What started it: a quiet period, rows of an earlier run, or the end of the wait. */
      reason: 'quiet' | 'resumed' | 'timeout';
    };

/** Where `wait` listens for webhooks and how long it waits. */
export interface BatchFileWaitOptions {
  /** Interface the webhook listener binds. Default `127.0.0.1`. */
  host?: string;
  /** Port of the listener; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * How the listener's URL becomes the project's webhook endpoint: the base URL of a reference
   * server (registered through its admin API, and removed from it when the run ends), or a
   * function that registers it. Default: none;
   * the `listening` progress event carries the URL for the caller to register.
   */
  register?: string | URL | ((url: string) => void | Promise<void>);
  /**
   * How long to wait for the outcomes after the last row was sent, in ms. Rows still without one
   * are asked about once more (see `quietMs`), then reported as `pending`. Default 300000 (5 min).
   */
  timeoutMs?: number;
  /**
   * Reconciliation: when no completion has arrived for this long, the rows still waiting are asked
   * about through the service's idempotency: each row's original request is sent again with its
   * `idempotencyKey`, which answers with the stored result once done (no second validation). Rows
   * of an earlier run (resume) are asked about at once. Default 10000 (10 s).
   */
  quietMs?: number;
  /** Reconciliation requests in flight at most. Default 16. */
  reconcileConcurrency?: number;
  /** Wait before asking again about rows still PENDING, in ms; doubles each round up to 30 s. Default 1000. */
  pendingBackoffMs?: number;
}

/** What a batch file run reads: the `input` group of {@link BatchFileOptions}. */
export interface BatchFileInputOptions {
  /**
   * A path, or a readable stream (copied to a private temporary file first). A CSV (delimiter
   * `,`, `;` or tab, detected; a BOM is dropped; the text encoding is detected, see `encoding`) or
   * an Excel workbook (`.xlsx`, recognised by name or content; see `sheet`). A header row names
   * the columns, as people name them in English, German, French, Spanish, Italian or Dutch
   * (`Land`, `USt-IdNr`, `Firma`, `PLZ`, `Ort`, `Pays`, `TVA`, `Partita IVA`, ...; see
   * `COLUMN_NAMES`), or as `columns` maps them; `metadata.<key>` columns become metadata. Without
   * a country column, the country comes from the VAT ID's prefix (`DE...`, `EL...` is GR).
   * Required.
   */
  path: string | ReadableLike;
  /**
   * Explicit column mapping, request field -> header name, e.g. `{ countryCode: 'Land', rawValue:
   * 'USt-IdNr', 'address.city': 'Ort', 'metadata.customer': 'Kundennr' }`; the other columns are
   * still recognised by name. A name that is not in the header is a `BatchInputError`. Default: none.
   */
  columns?: Readonly<Record<string, string>>;
  /** For a workbook input: the sheet to read, by name (case-insensitive). Default: the first sheet. */
  sheet?: string;
  /**
   * The input's text encoding, as a WHATWG label (`utf-8`, `utf-16le`, `utf-16be`,
   * `windows-1252`, `latin1`, ...); an unknown label is a `BatchInputError`. Default: detected: a
   * BOM names UTF-8, UTF-16LE or UTF-16BE; without one, UTF-8 when the whole file is valid UTF-8,
   * else Windows-1252 (reported as an `encoding` progress event). The idempotency keys' default
   * seed is the hash of the raw bytes either way.
   */
  encoding?: string;
}

/** What a batch file run writes: the `output` group of {@link BatchFileOptions}. */
export interface BatchFileOutputOptions {
  /**
   * Results, one line per input row in input order, joined to the input: a file path (NDJSON;
   * CSV when the name ends in `.csv`; an Excel workbook when it ends in `.xlsx`) or a writable
   * stream. CSV: the input's columns, then `row`, `line` (the spreadsheet row number), `status`, `outcome`, `provider`, `registryCompanyName`, `companyNameMatch`, `addressMatch`,
   * `validationResultId`, `checkedAt`, `validationRequestId`, `code`, `message` (an input column
   * named like one of these is written as `input.<name>`). NDJSON: those fields plus `input`, the
   * input's cells by header name. Workbook: one sheet with the CSV's columns, header frozen,
   * autofilter on, outcome cells coloured, every cell text; the run appends to
   * `<path>.rows.ndjson` (resumable) and writes the workbook from it when the run ends. A file
   * can be resumed, a stream cannot. Default: no results (the rows are only counted and reported
   * through `onProgress`).
   */
  path?: string | WritableLike;
  /** Format of a stream `path` (a file's format follows its name). Default `ndjson`. */
  format?: 'ndjson' | 'csv';
  /**
   * Delimiter of CSV results and rejects: `,`, `;` or `\t`. Default: the CSV input's (`,` for a
   * workbook input).
   */
  delimiter?: ',' | ';' | '\t';
  /**
   * Start CSV results and rejects with a UTF-8 byte order mark, so Excel reads umlauts right.
   * Default: when the CSV input had a BOM or was not UTF-8, and for a workbook input.
   */
  bom?: boolean;
  /** A CSV file for the rows refused locally or by the server: row, line, the input's cells, code, message. Default: none. */
  rejects?: string;
  /**
   * Mode of the files the run creates (results, rejects, state); they may hold personal data.
   * Default 0o600 (owner only). An existing file keeps its mode.
   */
  fileMode?: number;
}

/** How a batch file run keeps its state and treats an earlier run's files: the `resume` group of {@link BatchFileOptions}. */
export interface BatchFileResumeOptions {
  /**
   * The state file, replaced at each checkpoint. Default `<output.path>.state.json` when
   * `output.path` is a path to a regular file (or a new one); none otherwise. A device or FIFO
   * output (`/dev/stdout`) is written as a stream: no state, no resume.
   */
  state?: string;
  /**
   * Continue the run the state file describes: the outputs are cut back to what it records and
   * the rows it counts are not sent again. Needs `output.path` as a path. Default false.
   */
  continue?: boolean;
  /**
   * Replace outputs that exist and are not this run's own: a results or rejects file holding data,
   * a state file of an earlier run (which is then started over). Without it such a file is refused
   * (`OutputPathError`, nothing written): continue an earlier run with `continue`. Default false.
   */
  force?: boolean;
  /**
   * How often the outputs are fsynced and the state file replaced. Default
   * `{ everySteps: Infinity, everyMs: 1000 }`: once a second (a step is a row). A resume re-sends
   * at most the rows after the last checkpoint, and their keys make the server replay them.
   */
  sync?: SyncPolicy;
}

/**
 * How a batch file run sends its rows: the `send` group of {@link BatchFileOptions}. `timeoutMs`,
 * `maxRetries` and `deadlineMs` are each request's (the rows' and, with `wait`, the
 * reconciliation's).
 */
export interface BatchFileSendOptions
  extends Pick<RunBatchOptions, 'strategy' | 'chunkSize' | 'concurrency' | 'precheck' | 'retryForMs'>,
    Omit<RequestOptions, 'signal'> {
  /**
   * Seed of the deterministic idempotency keys (run id + row number + row content): a row sent
   * twice is replayed by the server, never validated twice. A run continued with
   * `resume.continue` must use its first run's. Default: the sha256 of the input bytes.
   */
  runId?: string;
}

/**
 * Options of `runBatchFile`, by concern: what is read (`input`), what is written
 * (`output`), the state that makes a run resumable (`resume`), how rows are sent (`send`) and
 * whether to wait for their outcomes (`wait`).
 */
export interface BatchFileOptions {
  /** The input file and how to read it. Required. */
  input: BatchFileInputOptions;
  /** The results and rejects files and their form. Default: no results, no rejects. */
  output?: BatchFileOutputOptions;
  /** The state file, continuing or replacing an earlier run, checkpoints. Default: see each member. */
  resume?: BatchFileResumeOptions;
  /** Request strategy, pacing, pre-check, retries and idempotency keys. Default: see each member. */
  send?: BatchFileSendOptions;
  /**
   * Wait for the outcome of every submitted row: a webhook listener joins each completion to its
   * row (confirmed by fetching the result), and the results file is rewritten with the outcomes.
   * `true` uses the defaults of {@link BatchFileWaitOptions}. Default false.
   */
  wait?: boolean | BatchFileWaitOptions;
  /**
   * Stops the run: nothing new is sent, what is in flight is reported and checkpointed, then the
   * promise rejects with `BatchInterruptedError`. Default: none.
   */
  signal?: AbortSignal;
  /** Called as the run goes: columns found, listener ready, each row, waiting for outcomes. Default: none. */
  onProgress?: (event: BatchFileEvent) => void;
}

/** What a batch file run reports through `onProgress`. */
export type BatchFileEvent =
  | {
      type: 'encoding';
      /** The input is not valid UTF-8 and has no BOM: it is read as this encoding (`windows-1252`). */
      encoding: string;
      /** Byte offset of the first byte that is not valid UTF-8. */
      invalidAt: number;
    }
  | {
      type: 'columns';
      /** Header names that are not part of a request (not sent). */
      ignored: string[];
      /** Metadata columns whose key was rewritten to the allowed characters: [as written, as sent]. */
      renamed: Array<[string, string]>;
      /** No country column: each row's country is taken from its VAT ID's prefix. */
      countryFromPrefix: boolean;
    }
  | {
      type: 'listening';
      /** The webhook listener's URL (with its secret path). */
      url: string;
      /** Whether `wait.register` registered it; when false, the caller must. */
      registered: boolean;
    }
  | {
      type: 'row';
      result: BatchRowResult;
      /** Rows reported so far, counting the rows of an earlier run that this one resumed. */
      rowsDone: number;
      /** Data rows of the input (counted before the run, quote-aware). */
      rowsTotal: number | undefined;
      /** Rows per status (`completed:<outcome>` for completed rows), this run and the resumed one. */
      counts: Readonly<Record<string, number>>;
      /** Rows per second of this run. */
      rowsPerSecond: number;
    }
  | {
      type: 'resending';
      /** Rows an earlier run left failed for a retryable cause (429, 5xx, timeout, connection), sent again with their keys. */
      rows: number;
    }
  | {
      type: 'waiting';
      /** Submitted rows still without an outcome. */
      outstanding: number;
      timeoutMs: number;
    }
  | WaitProgress;

/** What a finished batch file run did. */
export interface BatchFileResult {
  /** The last row reported (every row of the input). */
  rowsDone: number;
  /** Rows per status; `completed:<outcome>` for completed rows. */
  counts: Record<string, number>;
  /** With `wait`: rows still without an outcome when the wait timed out (status `pending`). Otherwise 0. */
  outstanding: number;
  /**
   * Rows `failed` for a retryable cause (408, 429, 5xx, a timeout, a broken connection) that a
   * run with `resume: { continue: true }` sends again with their original idempotency keys; 0
   * when the run kept no state file to resume from. Other failures (a 400, 409) are never resent.
   */
  retryable: number;
  /** Whether this run continued an earlier one. */
  resumed: boolean;
  /** The state file kept, if any. */
  statePath: string | undefined;
  /**
   * With a workbook output (`.xlsx`): cells that held a character a workbook cannot hold (a C0
   * control other than tab and line breaks, DEL, U+FFFE, U+FFFF, a lone surrogate), written with
   * U+FFFD in its place so the workbook still opens. 0 for other outputs.
   */
  workbookCellsReplaced: number;
}
