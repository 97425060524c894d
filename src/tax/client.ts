import { LocalValidationError } from '../core/errors/error-classes.js';
import type { HttpClient, RequestOptions } from '../core/http.js';
import { path } from '../core/path.js';
import { RETRY_IDEMPOTENT_DELETE, RETRY_SAFE, RETRY_UNSENT_ONLY } from '../core/retry.js';
import { parseRequest, parseResponse } from '../core/schema.js';
import { compiledSchema } from '../core/schema-compiler.js';
import { runBatch } from './batch/runner.js';
import type { BatchRowResult, RetryDefaults, RunBatchOptions, TaxBatchAccess } from './batch/types.js';
import { type CompletionWatch, DEFAULT_RESULT_WAIT_MS } from './completion-watch.js';
import { type PrecheckMode, rawValueToSend, strictPrecheckIssue } from './precheck-mode.js';
import {
  BatchRequestSchema,
  type ScheduleRequest,
  ScheduleRequestSchema,
  type ValidationRequest,
  ValidationRequestSchema,
} from './request-schemas.js';
import {
  type BatchAccepted,
  BatchAcceptedSchema,
  type PendingValidation,
  PendingValidationSchema,
  type ScheduleCreated,
  ScheduleCreatedSchema,
  type ValidationResult,
  ValidationResultSchema,
} from './response-schemas.js';

const BASE = '/taxvalidation/v1';

/** The check of each batch answer: its schema, compiled once a batch run loaded zod's compiler. */
const BatchAnswerSchema = compiledSchema(BatchAcceptedSchema);

/** Parameters of `validate`: the request of `POST /validations`. */
export type ValidateParams = ValidationRequest;
/** Parameters of `createSchedule`: the request of `POST /schedules`. */
export type ScheduleCreateParams = ScheduleRequest;

/** Options of `validate` and `validateBatch`. */
export interface ValidateOptions extends RequestOptions {
  /** Offline pre-check before sending. Default `structural` (only what the API would refuse with 422). */
  precheck?: PrecheckMode;
  /**
   * `validate` only: when the answer is PENDING, wait for its completion on `watch` (see
   * `watchCompletions(client.tax)` of `svc-sdk/node`) for up to `timeoutMs` (default 60 000). On timeout the
   * pending outcome is returned with `timedOut: true`.
   */
  wait?: { watch: CompletionWatch; timeoutMs?: number };
}

/** `validate` finished: 201, or 200 for an idempotent replay (`replay: true`). */
export interface CompletedValidation {
  kind: 'completed';
  result: ValidationResult;
  /** true when the server answered 200: this idempotency key was already processed. */
  replay: boolean;
  /** The idempotency key sent (generated when none was given). */
  idempotencyKey: string;
  requestId: string | undefined;
}

/** `validate` accepted for asynchronous processing (202); the result arrives by webhook. */
export interface PendingValidationOutcome {
  kind: 'pending';
  pending: PendingValidation;
  /** true when `wait` was given and no result arrived within its timeout. */
  timedOut?: boolean;
  replay: boolean;
  idempotencyKey: string;
  requestId: string | undefined;
}

/** What `validate` returns. */
export type ValidateOutcome = CompletedValidation | PendingValidationOutcome;

/** Result of `deleteSchedule`. */
export interface ScheduleDeleted {
  scheduleId: string;
  /** true when a retry after a lost response found the schedule already gone. */
  alreadyDeleted: boolean;
}

/** Set by TaxClient's static block: the only code that can reach its private batch methods. */
let senderOf: (tax: TaxClient) => TaxBatchAccess;

/**
 * What the batch jobs (`runBatch`, the batch-file job) need of a tax client: its public calls plus
 * sending already keyed items and its retry settings, which are no part of its public surface.
 */
export function batchSenderOf(tax: TaxClient): TaxBatchAccess {
  return senderOf(tax);
}

/** The tax-ID validation API (`/taxvalidation/v1`). */
export class TaxClient {
  static {
    senderOf = (tax) => ({
      _submitBatch: (items, options) => tax.#submitBatch(items, options),
      _retryDefaults: () => tax.#retryDefaults(),
      validate: (params, options) => tax.validate(params, options),
      getResult: (id) => tax.getResult(id),
    });
  }

  constructor(
    private readonly http: HttpClient,
    private readonly key: () => string | undefined,
  ) {}

  private auth() {
    return { scheme: 'bearer' as const, key: this.key() };
  }

  /**
   * Validates one ID. Every request carries an `idempotencyKey` (a UUID is generated when none is
   * given and reused on every retry), so retries after timeouts or 5xx never validate twice.
   *
   * @example
   * const outcome = await client.tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' });
   * if (outcome.kind === 'completed') console.log(outcome.result.outcome);
   */
  async validate(params: ValidateParams, options: ValidateOptions = {}): Promise<ValidateOutcome> {
    const body = parseRequest(ValidationRequestSchema(), params, 'validation request');
    if (options.precheck === 'strict') {
      const issue = strictPrecheckIssue(body.countryCode, body.rawValue);
      if (issue) throw new LocalValidationError([issue], 'validation request');
    }
    const idempotencyKey = body.idempotencyKey ?? crypto.randomUUID();
    const res = await this.http.call({
      method: 'POST',
      path: `${BASE}/validations`,
      body: {
        ...body,
        rawValue: rawValueToSend(body.countryCode, body.rawValue, options.precheck),
        idempotencyKey,
      },
      auth: this.auth(),
      retry: RETRY_SAFE,
      options,
    });
    const replay = res.status === 200;
    const data = res.data as { status?: unknown } | undefined;
    if (res.status === 202 || data?.status === 'PENDING') {
      const pending = parseResponse(PendingValidationSchema(), res.data, 'pending validation');
      const waited = await options.wait?.watch.waitFor(pending.validationRequestId, {
        timeoutMs: options.wait.timeoutMs ?? DEFAULT_RESULT_WAIT_MS,
        ...(options.signal && { signal: options.signal }),
      });
      if (waited)
        return { kind: 'completed', result: waited, replay, idempotencyKey, requestId: res.requestId };
      const timedOut = options.wait ? { timedOut: true } : {};
      return { kind: 'pending', pending, replay, idempotencyKey, requestId: res.requestId, ...timedOut };
    }
    const result = parseResponse(ValidationResultSchema(), res.data, 'validation result');
    return { kind: 'completed', result, replay, idempotencyKey, requestId: res.requestId };
  }

  /**
   * Submits up to 1000 items in one `POST /validations/batch` (always asynchronous). Items without
   * an `idempotencyKey` get one. A 422 refuses the whole batch and names every failing item index.
   */
  async validateBatch(
    items: readonly ValidateParams[],
    options: ValidateOptions = {},
  ): Promise<BatchAccepted & { idempotencyKeys: string[] }> {
    const request = parseRequest(BatchRequestSchema(), { items }, 'batch request');
    if (options.precheck === 'strict') {
      const issues = request.items.flatMap((item, i) => {
        const issue = strictPrecheckIssue(item.countryCode, item.rawValue, `items.${i}.rawValue`);
        return issue ? [issue] : [];
      });
      if (issues.length) throw new LocalValidationError(issues, 'batch request');
    }
    const keyed = request.items.map((item) => ({
      ...item,
      rawValue: rawValueToSend(item.countryCode, item.rawValue, options.precheck),
      idempotencyKey: item.idempotencyKey ?? crypto.randomUUID(),
    }));
    const res = await this.http.call({
      method: 'POST',
      path: `${BASE}/validations/batch`,
      body: { items: keyed },
      auth: this.auth(),
      retry: RETRY_SAFE,
      options,
    });
    const accepted = parseResponse(BatchAnswerSchema(), res.data, 'batch response');
    return { ...accepted, idempotencyKeys: keyed.map((item) => item.idempotencyKey) };
  }

  /** The client's retry settings and clock (used by `runBatch`, which paces and retries its own requests). */
  #retryDefaults(): RetryDefaults {
    const { maxRetries, deadlineMs, sleep, random, now, logger } = this.http.settings;
    return { maxRetries, deadlineMs, sleep, random, now, logger };
  }

  /** Sends already checked, keyed items as one batch (used by `runBatch`, which checks rows itself). */
  async #submitBatch(
    items: ReadonlyArray<ValidationRequest & { idempotencyKey: string }>,
    options: RequestOptions = {},
  ): Promise<BatchAccepted> {
    const res = await this.http.call({
      method: 'POST',
      path: `${BASE}/validations/batch`,
      body: { items },
      auth: this.auth(),
      retry: RETRY_SAFE,
      options,
    });
    return parseResponse(BatchAnswerSchema(), res.data, 'batch response');
  }

  /**
   * Streams any number of rows through validation and yields one {@link BatchRowResult} per row in
   * input order. Rows failing the local checks are yielded as `rejected` and never sent. With a
   * `runId`, idempotency keys are deterministic, so a second run of the same input validates
   * nothing twice. Throws {@link BatchStoppedError} on 402 (plan limit) or a key problem.
   *
   * @example
   * for await (const r of client.tax.runBatch(rows, { runId: 'customers-2026-11' })) console.log(r.row, r.status);
   */
  runBatch(
    rows: AsyncIterable<unknown> | Iterable<unknown>,
    options: RunBatchOptions = {},
  ): AsyncGenerator<BatchRowResult> {
    return runBatch(senderOf(this), rows, options);
  }

  /**
   * Creates a recurring schedule. There is no idempotency key for schedules, so this call is
   * retried only when the connection failed before the request was written.
   */
  async createSchedule(params: ScheduleCreateParams, options: RequestOptions = {}): Promise<ScheduleCreated> {
    const body = parseRequest(ScheduleRequestSchema(), params, 'schedule request');
    const res = await this.http.call({
      method: 'POST',
      path: `${BASE}/schedules`,
      body,
      auth: this.auth(),
      retry: RETRY_UNSENT_ONLY,
      options,
    });
    return parseResponse(ScheduleCreatedSchema(), res.data, 'schedule');
  }

  /** Deletes a schedule. Idempotent: a 404 on a retry after a lost response counts as deleted. */
  async deleteSchedule(scheduleId: string, options: RequestOptions = {}): Promise<ScheduleDeleted> {
    if (!scheduleId) throw new LocalValidationError([{ path: 'scheduleId', message: 'must not be empty' }]);
    const res = await this.http.call({
      method: 'DELETE',
      path: `${BASE}${path`/schedules/${scheduleId}`}`,
      auth: this.auth(),
      retry: RETRY_IDEMPOTENT_DELETE,
      successOnRetry: [404],
      options,
    });
    return { scheduleId, alreadyDeleted: res.status === 404 };
  }

  /** Fetches a stored result: input echo, outcome, provider, match, registry data, timestamps. */
  async getResult(validationResultId: string, options: RequestOptions = {}): Promise<ValidationResult> {
    if (!validationResultId)
      throw new LocalValidationError([{ path: 'validationResultId', message: 'must not be empty' }]);
    const res = await this.http.call({
      method: 'GET',
      path: `${BASE}${path`/validation-results/${validationResultId}`}`,
      auth: this.auth(),
      retry: RETRY_SAFE,
      options,
    });
    return parseResponse(ValidationResultSchema(), res.data, 'validation result');
  }
}
