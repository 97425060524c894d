import type { RequestOptions } from '../../core/http.js';
import type { Logger } from '../../core/logger.js';
import type { PatienceOptions } from '../../core/patience.js';
import type { PrecheckMode } from '../precheck-mode.js';
import type { ValidationRequest } from '../request-schemas.js';
import type { BatchAccepted, PendingValidation, ValidationResult } from '../response-schemas.js';

/**
 * Status of one input row in a batch run. `pending`: submitted, and still without an outcome when
 * a waiting run's `timeoutMs` was up (a later resume with `wait` asks the service about it).
 */
export type BatchRowStatus = 'submitted' | 'completed' | 'rejected' | 'failed' | 'pending';

/** What happened to one input row. Rows come back in input order. */
export interface BatchRowResult {
  /** 1-based position of the row in the input. */
  row: number;
  /**
   * With `runBatchFile`: the row number a spreadsheet shows for the record (the header is 1,
   * blank rows count; a workbook's sheet row number). Undefined from `runBatch`.
   */
  line?: number;
  status: BatchRowStatus;
  validationRequestId?: string;
  validationResultId?: string;
  outcome?: string;
  provider?: string | null;
  /** For completed rows: the company name the registry returned, if any. */
  registryCompanyName?: string | null;
  /** For completed rows: how the given company name matched the registry's (`MATCH`, `PARTIAL`, ...). */
  companyNameMatch?: string;
  /** For completed rows: how the given address matched the registry's. */
  addressMatch?: string;
  /** For completed rows: when the registry was checked (ISO 8601). */
  checkedAt?: string;
  /** For rejected and failed rows: a short code (`SCHEMA`, `FORMAT`, `CHECKSUM`, `SERVER_422`, `CSV`, `HTTP_503`, ...). */
  code?: string;
  /** For rejected and failed rows: why, on one line. */
  message?: string;
  /** The idempotency key the row was sent with. */
  idempotencyKey?: string;
}

/**
 * A row result as the runner yields it to a file run: a submitted row whose key the service
 * replayed, with its result already stored, also carries that result's id. The property is not
 * enumerable, so it is no part of what `runBatch` reports or of a results line.
 */
export interface SentRowResult extends BatchRowResult {
  /** The stored result of a replayed row, to confirm at once instead of waiting for its webhook. */
  readonly knownResultId?: string;
}

/**
 * Options of `client.tax.runBatch`. Requests are paced (after AWS CLI's adaptive retry mode): a
 * 429 halves the requests in flight and the rate, holds every start for its `Retry-After` (or a
 * growing backoff), and the pace climbs back while requests pass; a throttled or 5xx chunk is
 * retried with the same idempotency keys for up to `retryForMs` (see {@link PatienceOptions}).
 */
export interface RunBatchOptions extends RequestOptions, PatienceOptions {
  /** `batch` (default): chunks to `POST /validations/batch`; `single`: one `POST /validations` per row, outcomes inline. */
  strategy?: 'batch' | 'single';
  /** Rows per batch request. Default 100 (at most 1000). */
  chunkSize?: number;
  /** Requests in flight. Default 4. */
  concurrency?: number;
  /**
   * Local pre-check before sending (see `svc precheck`). `structural` (default): the schema, and a
   * number of the wrong shape (pre-check FORMAT or LENGTH) is rejected instead of spending a
   * registry call; `strict`: also a failed check digit (CHECKSUM); `off`: only the schema.
   */
  precheck?: PrecheckMode;
  /**
   * How rejection reasons name a request field, e.g. `(path) => columnOf[path]` so that a reason
   * reads `USt-IdNr is empty`. Default: the field's dotted path (`rawValue is empty`).
   */
  fieldName?: (path: string) => string;
  /**
   * Seed of the deterministic idempotency keys: a row's key is derived from it, the row number and
   * the row's content, so running the same input again never validates a row twice. Default: a
   * random id (keys then differ between runs).
   */
  runId?: string;
  /** Rows to pass over at the start (already done in an earlier run); they are read but not sent or yielded. Default 0. */
  skipRows?: number;
}

/** A row that could not even be turned into a request (e.g. a broken CSV record). */
export interface RowReject {
  readonly rowReject: { code: string; message: string };
}

/** Marks an input row as rejected before the runner sees it. */
export function rowReject(code: string, message: string): RowReject {
  return { rowReject: { code, message } };
}

export function isRowReject(value: unknown): value is RowReject {
  return typeof value === 'object' && value !== null && 'rowReject' in value;
}

/** The client's retry settings and clock, which the runner's pace and retries use. */
export interface RetryDefaults {
  maxRetries: number;
  deadlineMs: number | undefined;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
  logger: Logger | undefined;
}

/**
 * What the batch runner needs of the tax client: sending a keyed chunk and validating one row.
 * `TaxClient` provides it; the runner depends on this shape, not on the client module.
 */
export interface BatchSender {
  _submitBatch(
    items: ReadonlyArray<ValidationRequest & { idempotencyKey: string }>,
    options?: RequestOptions,
  ): Promise<BatchAccepted>;
  validate(
    params: ValidationRequest,
    options?: RequestOptions & { precheck?: PrecheckMode },
  ): Promise<
    { kind: 'pending'; pending: PendingValidation } | { kind: 'completed'; result: ValidationResult }
  >;
  /** The client's retry settings; without them the runner neither paces nor retries on its own. */
  _retryDefaults?(): RetryDefaults;
}

/** What the batch jobs need of a tax client: a {@link BatchSender} that also fetches results by id. */
export interface TaxBatchAccess extends BatchSender {
  getResult(validationResultId: string): Promise<ValidationResult>;
}

/** The registry details of a result that a row reports (company name, match results, checked at). */
export function resultDetails(
  result: ValidationResult,
): Pick<BatchRowResult, 'registryCompanyName' | 'companyNameMatch' | 'addressMatch' | 'checkedAt'> {
  return {
    ...(result.responseData?.companyName !== undefined && {
      registryCompanyName: result.responseData.companyName,
    }),
    ...(result.match?.companyName !== undefined && { companyNameMatch: result.match.companyName }),
    ...(result.match?.address !== undefined && { addressMatch: result.match.address }),
    ...(result.checkedAt !== undefined && { checkedAt: result.checkedAt }),
  };
}
