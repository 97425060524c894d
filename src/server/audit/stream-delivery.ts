import type { Clock } from '../clock.js';
import type { DeliveryTimer } from '../tax/webhook-sender.js';
import type { Segment } from './segments.js';
import { type StreamBatch, StreamBatcher } from './stream-batches.js';
import type { AuditStreamConfig } from './stream-config.js';
import { encodeBatch, PushTarget, pushBatch } from './stream-post.js';

/** Options of audit streaming (`createReferenceServer({ auditStreams })`). */
export interface AuditStreamOptions {
  /** Batches in flight per stream, which is also its number of keep-alive sockets. Default 4. */
  concurrency?: number;
  /** Wait before the first retry of a batch, ms; each further retry waits twice as long. Default 500. */
  firstRetryDelayMs?: number;
  /** Longest wait between two attempts, ms. Default 30,000. */
  maxRetryDelayMs?: number;
  /** Time allowed to one attempt, answer included, ms. Default 10,000. */
  timeoutMs?: number;
  /** Schedules retries and `delayMs` waits. Default `setTimeout`; tests inject one that captures the delays. */
  timer?: DeliveryTimer;
}

/** The {@link AuditStreamOptions} in force when none are given. */
export const DEFAULT_STREAM_OPTIONS: Required<Omit<AuditStreamOptions, 'timer'>> = {
  concurrency: 4,
  firstRetryDelayMs: 500,
  maxRetryDelayMs: 30_000,
  timeoutMs: 10_000,
};

/**
 * The wait before attempt `failures + 1` of a batch whose `failures`-th attempt failed: 0.5 s,
 * 1 s, 2 s, ... doubling up to 30 s, then 30 s for every further attempt (with the defaults).
 */
export function retryDelay(failures: number, options: Required<Omit<AuditStreamOptions, 'timer'>>): number {
  return Math.min(options.firstRetryDelayMs * 2 ** (failures - 1), options.maxRetryDelayMs);
}

/** Counters of one stream (`GET /__admin/audit-streams`). */
export interface AuditStreamCounters {
  /** Events the server recorded for the stream's owner since the stream was made. */
  recorded: number;
  /** Event copies put into batches: `recorded - dropped + duplicated` once nothing waits. */
  pushed: number;
  /** Event copies in batches answered 2xx. */
  delivered: number;
  /** Requests answered 2xx. */
  batchesDelivered: number;
  /** Requests made, first attempts and retries. */
  attempts: number;
  /** Attempts answered other than 2xx, refused, or not answered in time. */
  failedAttempts: number;
  /** Events never pushed (`faults.dropRate`). */
  dropped: number;
  /** Events pushed twice (`faults.duplicateRate`). */
  duplicated: number;
  /** Event copies not yet delivered: not yet batched, in flight or waiting for a retry. */
  queued: number;
}

const realTimer: DeliveryTimer = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

/**
 * One audit stream's delivery: `concurrency` workers each take the next batch and send it until
 * it is answered 2xx, waiting on the backoff between attempts, for as long as the stream exists.
 * A batch is forgotten only once delivered (at least once); one that waits for a retry keeps its
 * worker, so a receiver that is down holds `concurrency` batches and the rest wait as positions.
 */
export class AuditStreamDelivery {
  private readonly batcher: StreamBatcher;
  private readonly target: PushTarget;
  private readonly options: Required<Omit<AuditStreamOptions, 'timer'>>;
  private readonly timer: DeliveryTimer;
  private readonly waits = new Set<() => void>();
  private readonly idle: Array<() => void> = [];
  private readonly abort = new AbortController();
  private active = 0;
  private closed = false;
  private delivered = 0;
  private batchesDelivered = 0;
  private attempts = 0;
  private failedAttempts = 0;
  /** `status 500`, `ECONNREFUSED`, `timeout`... of the last failed attempt. */
  lastError: string | undefined;

  constructor(
    /** Unique per stream; every `webhook-id` starts with it. */
    private readonly idPrefix: string,
    readonly config: AuditStreamConfig,
    private readonly clock: Clock,
    options: AuditStreamOptions = {},
  ) {
    const { timer, ...rest } = options;
    this.options = { ...DEFAULT_STREAM_OPTIONS, ...rest };
    this.timer = timer ?? realTimer;
    this.batcher = new StreamBatcher(config);
    this.target = new PushTarget(config.url, this.options.concurrency);
  }

  /** Queues a recorded segment and starts workers; returns at once. */
  record(segment: Segment): void {
    if (this.closed) return;
    this.batcher.add(segment);
    this.pump();
  }

  get counters(): AuditStreamCounters {
    const t = this.batcher.totals;
    return {
      recorded: t.recorded,
      pushed: t.pushed,
      delivered: this.delivered,
      batchesDelivered: this.batchesDelivered,
      attempts: this.attempts,
      failedAttempts: this.failedAttempts,
      dropped: t.dropped,
      duplicated: t.duplicated,
      queued: this.closed ? 0 : t.waiting + t.pushed - this.delivered,
    };
  }

  /** Resolves once every event recorded so far is delivered or dropped (or the stream is gone). */
  async flush(): Promise<void> {
    if (!this.busy) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Stops: waits end, the attempt in flight is aborted, what was not delivered is forgotten. */
  close(): void {
    this.closed = true;
    this.batcher.clear();
    for (const stop of [...this.waits]) stop();
    this.abort.abort();
    this.target.close();
    this.settle();
  }

  private get busy(): boolean {
    return !this.closed && (this.active > 0 || this.batcher.pending);
  }

  private settle(): void {
    if (this.busy) return;
    for (const wake of this.idle.splice(0)) wake();
  }

  private pump(): void {
    while (!this.closed && this.active < this.options.concurrency && this.batcher.pending) {
      this.active += 1;
      void this.work()
        // Encoding and signing do not throw for a stream that passed its schema; if they did,
        // the worker would end here rather than take the process down.
        .catch((error: unknown) => {
          this.lastError = error instanceof Error ? error.message : String(error);
        })
        .finally(() => {
          this.active -= 1;
          this.pump();
          this.settle();
        });
    }
  }

  private async work(): Promise<void> {
    for (let batch = this.batcher.next(); batch && !this.closed; batch = this.batcher.next()) {
      await this.deliver(batch);
    }
  }

  /** Sends one batch until a 2xx answer, or until the stream is gone. */
  private async deliver(batch: StreamBatch): Promise<void> {
    const body = await encodeBatch(batch, this.config);
    const id = `${this.idPrefix}_${batch.seq}`;
    for (let failures = 0; !this.closed; ) {
      if (this.config.faults.delayMs > 0) await this.wait(this.config.faults.delayMs);
      if (this.closed) return;
      this.attempts += 1;
      const signal = AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.options.timeoutMs)]);
      const timestamp = Math.floor(this.clock.now() / 1000);
      const end = await pushBatch(this.target, body, { id, timestamp, secret: this.config.secret }, signal);
      if (this.closed) return;
      if ('status' in end && end.status >= 200 && end.status < 300) {
        this.delivered += body.events;
        this.batchesDelivered += 1;
        return;
      }
      failures += 1;
      this.failedAttempts += 1;
      this.lastError = 'status' in end ? `status ${end.status}` : end.error;
      await this.wait(retryDelay(failures, this.options));
    }
  }

  /** Waits `ms` on the timer; ends early when the stream is closed. */
  private wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let cancel: (() => void) | undefined;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        this.waits.delete(stop);
        resolve();
      };
      const stop = () => {
        cancel?.();
        finish();
      };
      this.waits.add(stop);
      cancel = this.timer(finish, ms);
    });
  }
}
