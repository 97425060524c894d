import { resultDetails } from '../../../tax/batch/types.js';
import type { ValidationResult } from '../../../tax/response-schemas.js';
import type { WebhookListener } from '../../webhooks/listener-types.js';
import { startWebhookListener } from '../../webhooks/server.js';
import type { RowOutcome } from '../state/journal.js';
import { RequestIndex } from '../state/request-index.js';

/** Confirmations in flight at most, by default. */
export const MAX_CONFIRMATIONS = 16;
/** Result ids waiting for a confirmation slot at most; past it the listener holds its answer. */
export const MAX_QUEUED_CONFIRMATIONS = 1024;
/** Outcomes kept for rows not yet known to be submitted, at most (the oldest are dropped). */
export const MAX_EARLY_OUTCOMES = 10_000;

/** What the joiner needs of the tax client. */
export interface ResultFetcher {
  getResult(validationResultId: string): Promise<ValidationResult>;
}

/** The outcome of a row whose result is known. */
export function summaryOf(result: ValidationResult): RowOutcome {
  return {
    status: 'completed',
    validationResultId: result.validationResultId,
    outcome: result.outcome,
    provider: result.provider ?? null,
    ...resultDetails(result),
  };
}

/** Options of {@link CompletionJoiner}. */
export interface CompletionJoinerOptions {
  /** Confirmations (`getResult` calls) in flight at most. Default 16. */
  maxFetches?: number;
  /** Result ids queued behind them at most. Default 1024. */
  maxQueued?: number;
  /** Called once per row when its outcome is known (a duplicate event never calls it twice). */
  onOutcome(row: number, outcome: RowOutcome): void;
}

/**
 * Joins webhook completions back to rows: each `completed` event is confirmed by fetching its
 * result, whose `validationRequestId` names the row. Memory stays bounded whatever arrives: a row
 * waiting costs about 25 bytes (see {@link RequestIndex}); at most `maxFetches` confirmations run and `maxQueued` wait, and
 * past that the listener holds its answers (the sender's connections fill, so its own bounded
 * queue takes the backlog); outcomes that arrive before their row is known to be submitted are
 * parked, at most {@link MAX_EARLY_OUTCOMES} of them (a dropped one is found by reconciliation).
 */
export class CompletionJoiner {
  /** The row of each submitted request (by its validationRequestId), while it waits. */
  private readonly index = new RequestIndex();
  /** 1 for each row waiting for its outcome, by row number. */
  private waitingRows = new Uint8Array(1024);
  private waitingCount = 0;
  private readonly early = new Map<string, RowOutcome>();
  private readonly fetches = new Set<Promise<void>>();
  private readonly queued: string[] = [];
  private readonly roomWaiters: Array<() => void> = [];
  private readonly maxFetches: number;
  private readonly maxQueued: number;
  private peak = 0;
  private closed = false;
  private settled: Array<() => void> = [];
  /** Called after every outcome and every event (the wait phase listens). */
  onActivity: () => void = () => {};
  /** Set by the wait phase while it sleeps. */
  onWake: () => void = () => {};
  /** `Date.now()` of the last webhook event or outcome. */
  lastActivityAt = Date.now();
  /** Rows tracked from an earlier run (their webhooks went to another listener). */
  stale = 0;
  listener: WebhookListener | undefined;
  /** Rows that got their outcome. */
  answered = 0;
  /** Completion events received from the service (webhooks), duplicates included. */
  completions = 0;
  /** Confirmations that failed (the row stays waiting; reconciliation finds it). */
  errors = 0;

  constructor(
    private readonly tax: ResultFetcher,
    private readonly options: CompletionJoinerOptions,
  ) {
    this.maxFetches = options.maxFetches ?? MAX_CONFIRMATIONS;
    this.maxQueued = options.maxQueued ?? MAX_QUEUED_CONFIRMATIONS;
  }

  async listen(host: string, port: number): Promise<string> {
    this.listener = await startWebhookListener({
      host,
      port,
      onEvent: (event) => {
        if (!event.known || event.eventType !== 'taxvalidation.validation.completed') return;
        return this.received(event.validationResultId);
      },
    });
    return this.listener.url;
  }

  /** A completion event from the service: counted, then its result confirmed (see {@link confirm}). */
  received(validationResultId: string): Promise<void> {
    this.completions += 1;
    this.touch();
    return this.confirm(validationResultId);
  }

  private touch(): void {
    this.lastActivityAt = Date.now();
    this.onActivity();
  }

  /**
   * Queues a confirmation of a result; resolves once it is queued, which waits while the queue is
   * full (the listener answers the webhook then, so the sender slows down).
   */
  async confirm(validationResultId: string): Promise<void> {
    while (this.fetches.size >= this.maxFetches && this.queued.length >= this.maxQueued) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
      if (this.closed) return;
    }
    if (this.fetches.size < this.maxFetches) this.start(validationResultId);
    else this.queued.push(validationResultId);
  }

  private start(validationResultId: string): void {
    const work = this.tax
      .getResult(validationResultId)
      .then((result) => this.resolve(result.validationRequestId, summaryOf(result)))
      .catch(() => {
        this.errors += 1;
      })
      .finally(() => {
        this.fetches.delete(work);
        const next = this.queued.shift();
        if (next !== undefined) this.start(next);
        this.roomWaiters.shift()?.();
        if (this.fetches.size === 0) for (const wake of this.settled.splice(0)) wake();
      });
    this.fetches.add(work);
    this.peak = Math.max(this.peak, this.fetches.size);
  }

  /** The largest number of confirmations that were in flight at once (for tests and tuning). */
  get peakFetches(): number {
    return this.peak;
  }

  /** Gives a waiting row its outcome (or parks it until the row is tracked). */
  resolve(validationRequestId: string, summary: RowOutcome): void {
    const row = this.index.get(validationRequestId);
    if (row !== undefined) {
      // A row already answered (a duplicate event, or reconciled first) is left as it is.
      this.finish(row, summary, validationRequestId);
      return;
    }
    this.early.set(validationRequestId, summary);
    if (this.early.size > MAX_EARLY_OUTCOMES) {
      const oldest = this.early.keys().next().value;
      if (oldest !== undefined) this.early.delete(oldest);
    }
  }

  /** Whether `row` still waits for its outcome. */
  isWaiting(row: number): boolean {
    return row < this.waitingRows.length && this.waitingRows[row] === 1;
  }

  /**
   * Gives a waiting row its outcome, once: a row already answered is left as it is.
   * `validationRequestId` (the answer's) lets the index forget the row.
   */
  finish(row: number, outcome: RowOutcome, validationRequestId?: string): void {
    if (validationRequestId !== undefined && this.index.get(validationRequestId) === row)
      this.index.delete(validationRequestId);
    if (!this.isWaiting(row)) return;
    this.waitingRows[row] = 0;
    this.waitingCount -= 1;
    this.answered += 1;
    this.options.onOutcome(row, outcome);
    this.touch();
  }

  /**
   * Registers a submitted row. `knownResultId` (a replay whose result exists) is confirmed right
   * away; `stale` marks a row of an earlier run, whose completion went to another listener.
   */
  track(row: number, validationRequestId: string, knownResultId?: string, stale = false): void {
    if (this.isWaiting(row)) return;
    if (row >= this.waitingRows.length) {
      const grown = new Uint8Array(Math.max(row + 1, this.waitingRows.length * 2));
      grown.set(this.waitingRows);
      this.waitingRows = grown;
    }
    this.waitingRows[row] = 1;
    this.waitingCount += 1;
    this.index.set(validationRequestId, row);
    if (stale) this.stale += 1;
    const parked = this.early.get(validationRequestId);
    if (parked) {
      this.early.delete(validationRequestId);
      this.finish(row, parked, validationRequestId);
      return;
    }
    if (knownResultId) void this.confirm(knownResultId);
  }

  /** Rows still without an outcome. */
  get outstanding(): number {
    return this.waitingCount;
  }

  /** The rows still without an outcome, in row order. */
  outstandingRows(): number[] {
    const rows: number[] = [];
    for (let row = 0; row < this.waitingRows.length && rows.length < this.waitingCount; row++)
      if (this.waitingRows[row] === 1) rows.push(row);
    return rows;
  }

  /** Resolves when no confirmation is in flight or queued. */
  async idle(): Promise<void> {
    if (this.fetches.size === 0) return;
    await new Promise<void>((resolve) => this.settled.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.close();
    for (const wake of this.roomWaiters.splice(0)) wake();
  }
}
