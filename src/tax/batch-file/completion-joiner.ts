import type { BatchRowResult } from '../batch/types.js';
import type { ValidationResult } from '../response-schemas.js';
import { listenForWebhooks, type WebhookListener } from '../webhook-listener.js';

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
  private readonly early = new Map<
    string,
    { validationResultId: string; outcome: string; provider: string | null }
  >();
  private readonly fetches = new Set<Promise<void>>();
  private notify: () => void = () => {};
  listener: WebhookListener | undefined;
  errors = 0;

  constructor(private readonly tax: ResultFetcher) {}

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

  /** Fetches a result and fills in its row (or parks it). */
  confirm(validationResultId: string): void {
    const work = this.tax
      .getResult(validationResultId)
      .then((result) => {
        const summary = { validationResultId, outcome: result.outcome, provider: result.provider ?? null };
        const row = this.waiting.get(result.validationRequestId);
        if (row) this.complete(row, summary);
        else this.early.set(result.validationRequestId, summary);
      })
      .catch(() => {
        this.errors += 1;
      })
      .finally(() => this.fetches.delete(work));
    this.fetches.add(work);
  }

  private complete(
    row: BatchRowResult,
    summary: { validationResultId: string; outcome: string; provider: string | null },
  ) {
    row.status = 'completed';
    row.validationResultId = summary.validationResultId;
    row.outcome = summary.outcome;
    row.provider = summary.provider;
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
    await Promise.all([...this.fetches]);
  }

  async close(): Promise<void> {
    await this.listener?.close();
  }
}
