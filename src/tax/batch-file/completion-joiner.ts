import { type BatchRowResult, resultDetails } from '../batch/types.js';
import type { ValidationResult } from '../response-schemas.js';
import { listenForWebhooks, type WebhookListener } from '../webhook-listener.js';

/** Confirmations in flight at most, by default. */
export const MAX_CONFIRMATIONS = 16;

/** What a confirmed result sets on its row. */
type Summary = Pick<
  BatchRowResult,
  | 'validationResultId'
  | 'outcome'
  | 'provider'
  | 'registryCompanyName'
  | 'companyNameMatch'
  | 'addressMatch'
  | 'checkedAt'
>;

/** What the joiner needs of the tax client. */
export interface ResultFetcher {
  getResult(validationResultId: string): Promise<ValidationResult>;
}

/**
 * Joins webhook completions back to rows: each `completed` event is confirmed by fetching its
 * result, whose `validationRequestId` names the row. Events may arrive before the row is known
 * to be submitted; they are parked until it is.
 */
export class CompletionJoiner {
  private readonly waiting = new Map<string, BatchRowResult>();
  private readonly early = new Map<string, Summary>();
  private readonly fetches = new Set<Promise<void>>();
  /** Result ids waiting for a free confirmation slot. */
  private readonly queued: string[] = [];
  private notify: () => void = () => {};
  private peak = 0;
  private settled: () => void = () => {};
  listener: WebhookListener | undefined;
  errors = 0;

  constructor(
    private readonly tax: ResultFetcher,
    /** Confirmations (`getResult` calls) in flight at most. Default 16. */
    private readonly maxFetches = MAX_CONFIRMATIONS,
  ) {}

  async listen(host: string, port: number): Promise<string> {
    this.listener = await listenForWebhooks({
      host,
      port,
      onEvent: (event) => {
        if (!event.known || event.eventType !== 'taxvalidation.validation.completed') return;
        this.confirm((event as { validationResultId: string }).validationResultId);
      },
    });
    return this.listener.url;
  }

  /**
   * Fetches a result and fills in its row (or parks it). At most `maxFetches` run at once; the
   * rest queue (ids only), so a burst of webhooks never opens a connection per event.
   */
  confirm(validationResultId: string): void {
    if (this.fetches.size >= this.maxFetches) {
      this.queued.push(validationResultId);
      return;
    }
    const work = this.tax
      .getResult(validationResultId)
      .then((result) => {
        const summary: Summary = {
          validationResultId,
          outcome: result.outcome,
          provider: result.provider ?? null,
          ...resultDetails(result),
        };
        const row = this.waiting.get(result.validationRequestId);
        if (row) this.complete(row, summary);
        else this.early.set(result.validationRequestId, summary);
      })
      .catch(() => {
        this.errors += 1;
      })
      .finally(() => {
        this.fetches.delete(work);
        const next = this.queued.shift();
        if (next !== undefined) this.confirm(next);
        else if (this.fetches.size === 0) this.settled();
      });
    this.fetches.add(work);
    this.peak = Math.max(this.peak, this.fetches.size);
  }

  /** The largest number of confirmations that were in flight at once (for tests and tuning). */
  get peakFetches(): number {
    return this.peak;
  }

  private complete(row: BatchRowResult, summary: Summary) {
    row.status = 'completed';
    Object.assign(row, summary);
    if (row.validationRequestId) this.waiting.delete(row.validationRequestId);
    this.notify();
  }

  /** Registers a submitted row; a replayed row with a known result is fetched right away. */
  track(row: BatchRowResult): void {
    if (row.status !== 'submitted' || !row.validationRequestId) return;
    const parked = this.early.get(row.validationRequestId);
    this.waiting.set(row.validationRequestId, row);
    if (parked) {
      this.early.delete(row.validationRequestId);
      this.complete(row, parked);
      return;
    }
    const known = (row as { knownResultId?: string }).knownResultId;
    if (known) this.confirm(known);
  }

  get outstanding(): number {
    return this.waiting.size;
  }

  /** Resolves when every tracked row has an outcome, or after `timeoutMs`, or on abort. */
  async wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.waiting.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, timeoutMs);
      function finish() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', finish);
        resolve();
      }
      signal?.addEventListener('abort', finish, { once: true });
      this.notify = () => {
        if (this.waiting.size === 0) finish();
      };
    });
    // Let the confirmations under way (and queued behind them) finish.
    if (this.fetches.size > 0) await new Promise<void>((resolve) => (this.settled = resolve));
  }

  async close(): Promise<void> {
    await this.listener?.close();
  }
}
