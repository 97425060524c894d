import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { DeliveryQueue } from './delivery-queue.js';
import type { Delivery } from './webhook-deliveries.js';

// One endpoint of the webhook sender (webhook-sender.ts): its queue, its keep-alive agent, and
// one POST of a delivery.

/**
 * One endpoint's deliveries: the queue of events not yet tried (numbers, unbounded: nothing is
 * dropped), the retries that are due (served first), and a keep-alive agent whose socket count
 * equals the number of deliveries allowed in flight, so sockets and descriptors stay bounded.
 */
export class EndpointQueue {
  readonly agent: HttpAgent;
  readonly queued = new DeliveryQueue();
  /** Retries whose wait is over, and redeliveries: sent before the queue. */
  private ready: Delivery[] = [];
  active = 0;
  /** Deliveries waiting for a retry timer. */
  waiting = 0;

  readonly url: URL;

  constructor(
    /** The endpoint as registered. */
    readonly href: string,
    concurrency: number,
  ) {
    this.url = new URL(href);
    const Agent = this.url.protocol === 'https:' ? HttpsAgent : HttpAgent;
    this.agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  }

  /** Deliveries not yet ended and not in flight. */
  get pending(): number {
    return this.queued.length + this.ready.length + this.waiting;
  }

  /** Deliveries held whole: waiting for a retry or due. */
  get retrying(): number {
    return this.ready.length + this.waiting;
  }

  pushReady(delivery: Delivery): void {
    this.ready.push(delivery);
  }

  shiftReady(): Delivery | undefined {
    return this.ready.shift();
  }

  clear(): void {
    this.queued.clear();
    this.ready = [];
    this.waiting = 0;
  }
}

export type AttemptEnd = { status: number } | { error: string };

/** POSTs `body`; resolves with the status once the answer has been read, or with the error. */
export function post(
  queue: EndpointQueue,
  body: string,
  timeoutMs: number,
  reset = false,
): Promise<AttemptEnd> {
  const send = queue.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptEnd>((resolve) => {
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
        res.on('error', (error) => resolve({ error: errorName(error) }));
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.resume();
      },
    );
    req.on('error', (error) => resolve({ error: errorName(error) }));
    if (!reset) {
      req.end(body);
      return;
    }
    // An injected reset: the endpoint sees half a request, then the connection drops.
    req.write(body.slice(0, Math.floor(body.length / 2)), () =>
      setImmediate(() => req.destroy(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))),
    );
  });
}

/** What an outgoing attempt's error is called in records: `timeout`, or the socket's code (`ECONNREFUSED`, ...). */
export function errorName(error: Error): string {
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timeout';
  return (error as NodeJS.ErrnoException).code ?? error.name;
}
