/** Where one webhook delivery stands. */
export type DeliveryState =
  /** Waiting for a free connection. */
  | 'queued'
  /** An attempt failed; the next one is scheduled (`nextAttemptAt`). */
  | 'retrying'
  /** An attempt is in flight. */
  | 'sending'
  | 'delivered'
  /** Every attempt of the schedule failed. */
  | 'failed'
  /** Never sent: lost by an injected `webhookLost` fault. */
  | 'lost';

/** One event on its way to one endpoint, as `GET /__admin/webhook-deliveries` lists it. */
export interface WebhookDeliveryRecord {
  /** Delivery id (`dlv_...`), the handle of `POST /__admin/webhook-deliveries/{id}/redeliver`. */
  id: string;
  /** The event's id (`evt_...`); an event sent to two endpoints has two deliveries. */
  eventId: string;
  url: string;
  eventType: string;
  state: DeliveryState;
  /** Attempts made so far (a redelivery continues the count). */
  attempts: number;
  /** HTTP status of the last attempt, when it got an answer. */
  lastStatus: number | null;
  /** Why the last attempt failed, when it did without an answer (`ECONNRESET`, `timeout`, ...). */
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  /** When the next attempt is due (state `retrying`). */
  nextAttemptAt: string | null;
}

/**
 * A delivery the sender is working on (in flight, waiting for a retry) or that is among the newest
 * kept for the read API. A queued delivery is not an object: the endpoint's queue holds its numbers
 * (`seq`, `eventSeq`, `kind`, `ref`) and the object is made when it is sent. The payload is built at
 * each attempt from (`kind`, `ref`), e.g. from the stored validation; only an event given as an
 * object (`payload`) keeps it.
 */
export class Delivery {
  state: DeliveryState = 'queued';
  attempts = 0;
  /** Retries scheduled so far in this round (a redelivery starts a new round). */
  retries = 0;
  lastStatus = 0;
  lastError: string | undefined;
  updatedAt: number;
  nextAttemptAt = 0;

  constructor(
    readonly seq: number,
    readonly eventSeq: number,
    readonly url: string,
    readonly eventType: string,
    /** Which builder makes the payload (0: the payload object below). */
    readonly kind: number,
    /** What the builder makes it from (e.g. the validation's position in the store). */
    readonly ref: number,
    /** The event itself, for events given as an object. */
    readonly payload: Readonly<Record<string, unknown>> | undefined,
    readonly createdAt: number,
  ) {
    this.updatedAt = createdAt;
  }

  get id(): string {
    return `dlv_${this.seq}`;
  }

  /** Whether the delivery is still under way (queued, sending or waiting for a retry). */
  get pending(): boolean {
    return this.state === 'queued' || this.state === 'sending' || this.state === 'retrying';
  }

  record(): WebhookDeliveryRecord {
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      id: this.id,
      eventId: `evt_${this.eventSeq}`,
      url: this.url,
      eventType: this.eventType,
      state: this.state,
      attempts: this.attempts,
      lastStatus: this.lastStatus || null,
      lastError: this.lastError ?? null,
      createdAt: iso(this.createdAt),
      updatedAt: iso(this.updatedAt),
      nextAttemptAt: this.state === 'retrying' ? iso(this.nextAttemptAt) : null,
    };
  }
}

/** Records kept for the read API by default: the newest 1000. */
export const DEFAULT_MAX_RECORDS = 1000;

/**
 * The newest deliveries, bounded: a run of a million events keeps only the last `maxRecords`
 * for the read API (counters live in the stats).
 */
export class DeliveryLog {
  private readonly bySeq = new Map<number, Delivery>();

  constructor(private readonly maxRecords = DEFAULT_MAX_RECORDS) {}

  add(delivery: Delivery): void {
    this.bySeq.set(delivery.seq, delivery);
    if (this.bySeq.size <= this.maxRecords) return;
    const oldest = this.bySeq.keys().next().value;
    if (oldest !== undefined) this.bySeq.delete(oldest);
  }

  /** The delivery of a `dlv_N` id, while it is among the newest. */
  get(id: string): Delivery | undefined {
    const match = /^dlv_(\d{1,15})$/.exec(id);
    return match ? this.bySeq.get(Number(match[1])) : undefined;
  }

  /** The delivery numbered `seq`, while it is among the newest. */
  bySequence(seq: number): Delivery | undefined {
    return this.bySeq.get(seq);
  }

  /** Newest first, at most `limit`, optionally only those in `state`. */
  list(limit: number, state?: DeliveryState): WebhookDeliveryRecord[] {
    const out: WebhookDeliveryRecord[] = [];
    const all = [...this.bySeq.values()];
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
      const delivery = all[i] as Delivery;
      if (state === undefined || delivery.state === state) out.push(delivery.record());
    }
    return out;
  }

  clear(): void {
    this.bySeq.clear();
  }
}
