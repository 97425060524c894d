import { HttpProblem } from '../problem.js';
import type { ServerState } from '../state.js';
import { MAX_KINDS, type QueuedDelivery } from './delivery-queue.js';
import {
  Delivery,
  DeliveryLog,
  type DeliveryState,
  type WebhookDeliveryRecord,
} from './webhook-deliveries.js';
import { EndpointQueue, post } from './webhook-endpoint.js';

/**
 * The retry schedule: the wait before the 2nd, 3rd, ... attempt of a delivery whose attempt
 * failed (network error, timeout, or an answer other than 2xx): 1 s, 5 s, 30 s, 2 min, 10 min,
 * so six attempts over about 13 minutes, then the delivery is `failed`.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1000, 5000, 30_000, 120_000, 600_000];

/** Schedules a retry; returns a function that cancels it. Injected by tests to capture the delays. */
export type DeliveryTimer = (callback: () => void, ms: number) => () => void;

const realTimer: DeliveryTimer = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

/** Options of {@link WebhookSender}. */
export interface WebhookSenderOptions {
  /** Deliveries in flight per endpoint, which is also its number of keep-alive sockets. Default 8. */
  concurrency?: number;
  /**
   * Deliveries per endpoint held whole while they wait for a retry. Past it no new first attempt
   * starts until some of them end: the events behind wait in the queue (a few numbers each), none
   * is dropped, and an endpoint that is down costs bounded memory. Default 10000.
   */
  maxRetrying?: number;
  /** Waits before each retry, ms; its length is the number of retries. Default {@link DEFAULT_RETRY_DELAYS_MS}. */
  retryDelaysMs?: readonly number[];
  /** Time allowed to one attempt, ms. Default 5000. */
  timeoutMs?: number;
  /** Deliveries kept for `GET /__admin/webhook-deliveries` (the newest). Default 1000. */
  maxRecords?: number;
  /** Schedules retries. Default `setTimeout`. */
  timer?: DeliveryTimer;
}

/** The retry settings `GET`/`POST /__admin/webhook-retries` read and change. */
export interface WebhookRetrySettings {
  retryDelaysMs: number[];
  timeoutMs: number;
}

/**
 * Builds an event's payload from a small number when the event is sent (e.g. from the stored
 * validation at that position); undefined when there is nothing left to build it from.
 */
export type WebhookPayloadBuilder = (ref: number) => Readonly<Record<string, unknown>> | undefined;

/**
 * Delivers webhook events to the endpoints registered with `POST /__admin/webhook-endpoints`, the
 * way a real service does: no event is ever dropped; each endpoint has a queue served by a fixed
 * number of keep-alive connections (the backpressure: a slow endpoint makes events wait, as
 * numbers, never as payloads), a failed attempt is retried on a backoff schedule, and every
 * delivery has a record (the newest are kept for the read API).
 */
export class WebhookSender {
  endpoints: string[] = [];
  private readonly queues = new Map<string, EndpointQueue>();
  private readonly idle: Array<() => void> = [];
  private readonly retryTimers = new Set<() => void>();
  private readonly log: DeliveryLog;
  private readonly concurrency: number;
  private readonly maxRetrying: number;
  private readonly timer: DeliveryTimer;
  /** Event kinds built at send time; kind 0 is an event given as an object. */
  private readonly kinds: Array<{ eventType: string; build: WebhookPayloadBuilder }> = [];
  /** Events given as objects, by delivery seq, until their delivery leaves the queue. */
  private objects = new Map<number, Readonly<Record<string, unknown>>>();
  private retryDelaysMs: number[];
  private timeoutMs: number;
  private seq = 0;
  private eventSeq = 0;
  private closed = false;

  constructor(
    private readonly state: ServerState,
    options: WebhookSenderOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 8;
    this.maxRetrying = options.maxRetrying ?? 10_000;
    const initial = {
      retryDelaysMs: [...(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS)],
      timeoutMs: options.timeoutMs ?? 5000,
    };
    this.retryDelaysMs = initial.retryDelaysMs;
    this.timeoutMs = initial.timeoutMs;
    this.timer = options.timer ?? realTimer;
    this.log = new DeliveryLog(options.maxRecords);
    this.kinds.push({ eventType: '', build: () => undefined });
    state.onReset(() => {
      this.endpoints = [];
      // Events not yet sent belong to the state that was just reset.
      for (const queue of this.queues.values()) queue.clear();
      this.objects = new Map();
      for (const cancel of this.retryTimers) cancel();
      this.retryTimers.clear();
      this.log.clear();
      // The schedule the admin API set goes back to the server's own.
      this.configureRetries(initial);
      this.settle();
    });
  }

  /**
   * Declares a kind of event whose payload `build` makes from a number when it is sent, so a
   * queued event costs a few numbers; returns the function that sends one.
   */
  defineEvent(eventType: string, build: WebhookPayloadBuilder): (ref: number) => void {
    const kind = this.kinds.length;
    if (kind >= MAX_KINDS) throw new Error(`WebhookSender: at most ${MAX_KINDS - 1} event kinds`);
    this.kinds.push({ eventType, build });
    return (ref) => this.enqueue(eventType, kind, ref, undefined);
  }

  /** Queues an event given as an object (kept until sent) for every endpoint. */
  send(payload: Record<string, unknown>): void {
    this.enqueue(String(payload.eventType), 0, 0, payload);
  }

  /** Queues one delivery per endpoint; never drops one. */
  private enqueue(
    eventType: string,
    kind: number,
    ref: number,
    payload: Readonly<Record<string, unknown>> | undefined,
  ): void {
    if (this.closed || this.endpoints.length === 0) return;
    this.eventSeq += 1;
    const now = this.state.clock.now();
    for (const url of this.endpoints) {
      const queue = this.queueFor(url);
      this.seq += 1;
      this.log.add(new Delivery(this.seq, this.eventSeq, url, eventType, kind, ref, payload, now));
      if (payload) this.objects.set(this.seq, payload);
      queue.queued.push(this.seq, this.eventSeq, kind, ref);
      this.pump(queue);
    }
  }

  /** The newest deliveries first, at most `limit`, optionally only those in `state`. */
  deliveries(limit = 100, state?: DeliveryState): WebhookDeliveryRecord[] {
    return this.log.list(limit, state);
  }

  /**
   * Sends a delivery that ended (delivered, failed or lost) again, with a fresh retry schedule.
   * 404 when the id is unknown (or no longer among the newest), 409 while it is under way.
   */
  redeliver(id: string): WebhookDeliveryRecord {
    const delivery = this.log.get(id);
    if (!delivery) throw new HttpProblem(404, `No webhook delivery ${id} (only the newest are kept)`);
    if (delivery.pending) throw new HttpProblem(409, `Webhook delivery ${id} is still ${delivery.state}`);
    delivery.state = 'queued';
    delivery.retries = 0;
    delivery.updatedAt = this.state.clock.now();
    const queue = this.queueFor(delivery.url);
    queue.pushReady(delivery);
    this.pump(queue);
    this.publish(delivery);
    return delivery.record();
  }

  /** The retry schedule and the time allowed to one attempt. */
  get retrySettings(): WebhookRetrySettings {
    return { retryDelaysMs: [...this.retryDelaysMs], timeoutMs: this.timeoutMs };
  }

  /** Changes the schedule for the retries scheduled from now on. */
  configureRetries(settings: Partial<WebhookRetrySettings>): WebhookRetrySettings {
    if (settings.retryDelaysMs) this.retryDelaysMs = [...settings.retryDelaysMs];
    if (settings.timeoutMs !== undefined) this.timeoutMs = settings.timeoutMs;
    return this.retrySettings;
  }

  private queueFor(url: string): EndpointQueue {
    let queue = this.queues.get(url);
    if (!queue) {
      queue = new EndpointQueue(url, this.concurrency);
      this.queues.set(url, queue);
    }
    return queue;
  }

  /** The delivery object of a queued entry: the kept record when it is among the newest. */
  private take(queue: EndpointQueue, entry: QueuedDelivery): Delivery {
    const payload = entry.kind === 0 ? this.objects.get(entry.seq) : undefined;
    if (entry.kind === 0) this.objects.delete(entry.seq);
    const kept = this.log.bySequence(entry.seq);
    if (kept) return kept;
    const eventType = payload ? String(payload.eventType) : (this.kinds[entry.kind]?.eventType ?? '');
    return new Delivery(
      entry.seq,
      entry.eventSeq,
      queue.href,
      eventType,
      entry.kind,
      entry.ref,
      payload,
      this.state.clock.now(),
    );
  }

  /**
   * Starts deliveries while the endpoint has a free slot: due retries first, then queued events,
   * unless `maxRetrying` deliveries already wait for a retry.
   */
  private pump(queue: EndpointQueue): void {
    while (queue.active < this.concurrency && !this.closed) {
      let delivery = queue.shiftReady();
      if (delivery === undefined) {
        if (queue.retrying >= this.maxRetrying) break;
        const entry = queue.queued.shift();
        if (entry === undefined) break;
        delivery = this.take(queue, entry);
      }
      queue.active += 1;
      void this.attempt(queue, delivery).finally(() => {
        queue.active -= 1;
        this.pump(queue);
        this.settle();
      });
    }
  }

  /** The payload of one attempt, built now. */
  private payloadOf(delivery: Delivery): Readonly<Record<string, unknown>> | undefined {
    return delivery.payload ?? this.kinds[delivery.kind]?.build(delivery.ref);
  }

  /** One attempt; a failure schedules the next one, or ends the delivery as `failed`. */
  private async attempt(queue: EndpointQueue, delivery: Delivery): Promise<void> {
    const fault = this.state.faults.nextDelivery();
    if (fault === 'webhookLost') return this.end(delivery, 'lost');
    const payload = this.payloadOf(delivery);
    if (payload === undefined) {
      // What the event was built from is gone (a reset while it was under way).
      delivery.lastError = 'gone';
      return this.end(delivery, 'failed');
    }
    const body = JSON.stringify(payload);
    delivery.state = 'sending';
    this.countAttempt(delivery);
    const end =
      fault === 'webhookStatus500'
        ? { status: 500 }
        : await post(queue, body, this.timeoutMs, fault === 'webhookReset');
    if (this.closed) return;
    delivery.lastStatus = 'status' in end ? end.status : 0;
    delivery.lastError = 'error' in end ? end.error : undefined;
    if ('status' in end && end.status >= 200 && end.status < 300) {
      this.end(delivery, 'delivered');
      // A delivery whose answer was lost on the way back: the sender delivers it once more.
      if (fault === 'webhookDuplicate') {
        this.countAttempt(delivery);
        await post(queue, body, this.timeoutMs, false);
      }
      return;
    }
    const delay = this.retryDelaysMs[delivery.retries];
    if (delay === undefined) return this.end(delivery, 'failed');
    delivery.retries += 1;
    delivery.state = 'retrying';
    delivery.nextAttemptAt = this.state.clock.now() + delay;
    delivery.updatedAt = this.state.clock.now();
    this.publish(delivery);
    queue.waiting += 1;
    const cancel = this.timer(() => {
      this.retryTimers.delete(cancel);
      queue.waiting -= 1;
      if (this.closed) return;
      delivery.state = 'queued';
      queue.pushReady(delivery);
      this.pump(queue);
    }, delay);
    this.retryTimers.add(cancel);
  }

  private countAttempt(delivery: Delivery): void {
    delivery.attempts += 1;
    this.state.stats.webhookAttempts += 1;
  }

  private end(delivery: Delivery, state: 'delivered' | 'failed' | 'lost'): void {
    delivery.state = state;
    delivery.updatedAt = this.state.clock.now();
    if (state === 'delivered') this.state.stats.webhooksSent += 1;
    else this.state.stats.webhooksFailed += 1;
    this.publish(delivery);
  }

  /**
   * Tells the console (event bus) where a delivery stands. Only the changes a person acts on:
   * waiting for a retry, ended, sent again; not every attempt, so a million deliveries stay cheap.
   */
  private publish(delivery: Delivery): void {
    this.state.events.publish('webhook', delivery.record());
  }

  private get busy(): boolean {
    for (const queue of this.queues.values()) if (queue.active > 0 || queue.pending > 0) return true;
    return false;
  }

  /** Wakes `drain()` callers once nothing is queued, in flight or waiting for a retry. */
  private settle(): void {
    if (this.busy) return;
    for (const wake of this.idle.splice(0)) wake();
  }

  /** Resolves when every event queued so far has been delivered or given up. */
  async drain(): Promise<void> {
    if (!this.busy) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Drops waiting events and retries, and closes every connection. */
  close(): void {
    this.closed = true;
    for (const cancel of this.retryTimers) cancel();
    this.retryTimers.clear();
    for (const queue of this.queues.values()) {
      queue.clear();
      queue.agent.destroy();
    }
    this.objects.clear();
    this.settle();
  }
}
