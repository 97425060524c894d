import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ServerState } from '../state.js';

/** Options of {@link WebhookSender}. */
export interface WebhookSenderOptions {
  /** Deliveries in flight per endpoint, which is also its number of keep-alive sockets. Default 8. */
  concurrency?: number;
  /** Deliveries waiting per endpoint; past it new events are dropped and counted as failed. Default 100000. */
  maxQueued?: number;
  /** Attempts per delivery (network error, timeout or non-2xx answer). Default 3. */
  attempts?: number;
  /** Time allowed to one attempt, ms. Default 5000. */
  timeoutMs?: number;
}

/**
 * One endpoint's deliveries: a FIFO of bodies and a keep-alive agent whose socket count equals
 * the number of deliveries allowed in flight, so the sockets (and descriptors) used by webhooks
 * stay bounded whatever the number of events.
 */
/** One event waiting for (or in) delivery to one endpoint. */
interface Delivery {
  id: string;
  eventType: string;
  body: string;
}

class EndpointQueue {
  readonly agent: HttpAgent;
  private readonly bodies: Delivery[] = [];
  private head = 0;
  active = 0;

  constructor(
    readonly url: URL,
    concurrency: number,
  ) {
    const Agent = url.protocol === 'https:' ? HttpsAgent : HttpAgent;
    this.agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  }

  get queued(): number {
    return this.bodies.length - this.head;
  }

  push(body: Delivery): void {
    this.bodies.push(body);
  }

  shift(): Delivery | undefined {
    if (this.head >= this.bodies.length) return undefined;
    const body = this.bodies[this.head] as Delivery;
    this.head += 1;
    // Compact now and then so a long run does not keep every delivered body alive.
    if (this.head > 1024 && this.head * 2 > this.bodies.length) {
      this.bodies.splice(0, this.head);
      this.head = 0;
    }
    return body;
  }

  clear(): void {
    this.bodies.length = 0;
    this.head = 0;
  }
}

/** POSTs `body` on `agent`; resolves with the status once the answer has been read. */
function post(queue: EndpointQueue, body: string, timeoutMs: number): Promise<number> {
  const send = queue.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const req = send(
      queue.url,
      {
        method: 'POST',
        agent: queue.agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'svc-reference-server',
        },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        res.on('error', reject);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.resume();
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Delivers webhook events to the endpoints registered with `POST /__admin/webhook-endpoints`.
 * Each endpoint has a bounded queue served by a fixed number of keep-alive connections, so a
 * run of any size reuses the same few sockets instead of opening one per event.
 */
export class WebhookSender {
  endpoints: string[] = [];
  private readonly queues = new Map<string, EndpointQueue>();
  private readonly idle: Array<() => void> = [];
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private readonly attempts: number;
  private readonly timeoutMs: number;
  private closed = false;
  private deliveries = 0;

  constructor(
    private readonly state: ServerState,
    options: WebhookSenderOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 8;
    this.maxQueued = options.maxQueued ?? 100_000;
    this.attempts = options.attempts ?? 3;
    this.timeoutMs = options.timeoutMs ?? 5000;
    state.onReset(() => {
      this.endpoints = [];
      // Events not yet sent belong to the state that was just reset.
      for (const queue of this.queues.values()) queue.clear();
      this.settle();
    });
  }

  /** Queues `payload` for every endpoint: POST, JSON, up to `attempts` tries. */
  send(payload: Record<string, unknown>): void {
    if (this.closed || this.endpoints.length === 0) return;
    const body = JSON.stringify(payload);
    const eventType = String(payload.eventType ?? '');
    for (const url of this.endpoints) {
      const queue = this.queueFor(url);
      if (queue.queued >= this.maxQueued) {
        this.state.stats.webhooksFailed += 1;
        continue;
      }
      this.deliveries += 1;
      queue.push({ id: `whd_${this.deliveries}`, eventType, body });
      this.pump(queue);
    }
  }

  private queueFor(url: string): EndpointQueue {
    let queue = this.queues.get(url);
    if (!queue) {
      queue = new EndpointQueue(new URL(url), this.concurrency);
      this.queues.set(url, queue);
    }
    return queue;
  }

  /** Starts deliveries while the endpoint has a free slot and waiting events. */
  private pump(queue: EndpointQueue): void {
    while (queue.active < this.concurrency && !this.closed) {
      const body = queue.shift();
      if (body === undefined) break;
      queue.active += 1;
      void this.deliver(queue, body).finally(() => {
        queue.active -= 1;
        this.pump(queue);
        this.settle();
      });
    }
  }

  private async deliver(queue: EndpointQueue, delivery: Delivery): Promise<void> {
    const report = (attempts: number, status: number | null, error: string | null, state: string) =>
      this.state.events.publish('webhook', {
        id: delivery.id,
        url: queue.url.href,
        eventType: delivery.eventType,
        attempts,
        lastStatus: status,
        lastError: error,
        state,
      });
    for (let attempt = 1; attempt <= this.attempts && !this.closed; attempt++) {
      let status: number | null = null;
      let error: string | null = null;
      try {
        status = await post(queue, delivery.body, this.timeoutMs);
        if (status >= 200 && status < 300) {
          this.state.stats.webhooksSent += 1;
          report(attempt, status, null, 'delivered');
          return;
        }
      } catch (cause) {
        // Retried below: a listener that is not up yet, or a kept-alive socket it just closed.
        error = (cause as NodeJS.ErrnoException).code ?? (cause as Error).name;
      }
      report(attempt, status, error, attempt < this.attempts ? 'retrying' : 'failed');
      if (attempt < this.attempts) await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
    this.state.stats.webhooksFailed += 1;
  }

  private get busy(): boolean {
    for (const queue of this.queues.values()) if (queue.active > 0 || queue.queued > 0) return true;
    return false;
  }

  /** Wakes `drain()` callers once nothing is queued or in flight. */
  private settle(): void {
    if (this.busy) return;
    for (const wake of this.idle.splice(0)) wake();
  }

  /** Resolves when every event queued so far has been delivered or given up. */
  async drain(): Promise<void> {
    if (!this.busy) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Drops waiting events and closes every connection. */
  close(): void {
    this.closed = true;
    for (const queue of this.queues.values()) {
      queue.clear();
      queue.agent.destroy();
    }
    this.settle();
  }
}
