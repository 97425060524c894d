import type { ServerResponse } from 'node:http';
import { HttpProblem } from './problem.js';
import { seededRandom } from './random.js';

/** Kinds of injected failure of API requests. `reset` drops the connection before or after the request is processed. */
export const API_FAULT_KINDS = ['reset', 'status500', 'status503', 'slow', 'truncate', 'status429'] as const;

/**
 * Kinds of injected failure of webhook delivery attempts: `webhookStatus500` (the attempt fails
 * with 500 before it reaches the endpoint, as a failing gateway would answer), `webhookReset`
 * (half the body is sent, then the connection is reset), `webhookLost` (the event is never
 * delivered: no further attempt), `webhookDuplicate` (delivered, then delivered once more).
 */
export const WEBHOOK_FAULT_KINDS = [
  'webhookStatus500',
  'webhookReset',
  'webhookLost',
  'webhookDuplicate',
] as const;
export type WebhookFaultKind = (typeof WEBHOOK_FAULT_KINDS)[number];

/** Every fault kind `POST /__admin/faults` accepts. */
export const FAULT_KINDS = [...API_FAULT_KINDS, ...WEBHOOK_FAULT_KINDS] as const;
/** One kind of fault: an API fault (`reset`, `status500`, ...) or a webhook-delivery fault (`webhookLost`, ...). */
export type FaultKind = (typeof FAULT_KINDS)[number];
type ApiFaultKind = (typeof API_FAULT_KINDS)[number];

/** Fault injection settings (admin `POST /__admin/faults`). */
export interface FaultConfig {
  /**
   * Share of API requests that fail, 0 to 1, when `kinds` names API kinds; and share of webhook
   * delivery attempts that fail, when it names webhook kinds (each drawn from its own sequence).
   */
  rate: number;
  kinds: FaultKind[];
  /** Seed of the fault sequence: the same seed and request order give the same faults. */
  seed: number;
  /** Extra delay of a `slow` response, ms. Default 2000. */
  slowMs?: number;
}

/** What happens to one request. */
export type FaultPlan =
  | { kind: 'none' }
  | { kind: 'reject'; problem: HttpProblem }
  | { kind: 'reset-before' }
  | { kind: 'reset-after' }
  | { kind: 'truncate' }
  | { kind: 'slow'; ms: number };

/** Draws faults from a seeded sequence. */
export class FaultInjector {
  private config: FaultConfig | undefined;
  private random: () => number = Math.random;
  private deliveryRandom: () => number = Math.random;
  private apiKinds: ApiFaultKind[] = [];
  private webhookKinds: WebhookFaultKind[] = [];
  /** Faults injected so far, by kind. */
  readonly injected: Record<string, number> = {};

  configure(config: FaultConfig | undefined): void {
    this.config = config && config.rate > 0 && config.kinds.length > 0 ? config : undefined;
    this.random = seededRandom(config?.seed ?? 0);
    // A sequence of its own: deliveries run on timers, so they must not shift the API's faults.
    this.deliveryRandom = seededRandom((config?.seed ?? 0) ^ 0x5eed);
    const kinds = this.config?.kinds ?? [];
    this.apiKinds = kinds.filter((k): k is ApiFaultKind =>
      (API_FAULT_KINDS as readonly string[]).includes(k),
    );
    this.webhookKinds = kinds.filter((k): k is WebhookFaultKind =>
      (WEBHOOK_FAULT_KINDS as readonly string[]).includes(k),
    );
    for (const key of Object.keys(this.injected)) delete this.injected[key];
  }

  get current(): FaultConfig | undefined {
    return this.config;
  }

  /** The fault of one webhook delivery attempt, if any. */
  nextDelivery(): WebhookFaultKind | undefined {
    const config = this.config;
    if (!config || this.webhookKinds.length === 0 || this.deliveryRandom() >= config.rate) return undefined;
    const kind = this.webhookKinds[Math.floor(this.deliveryRandom() * this.webhookKinds.length)];
    if (kind) this.injected[kind] = (this.injected[kind] ?? 0) + 1;
    return kind;
  }

  next(): FaultPlan {
    const config = this.config;
    if (!config || this.apiKinds.length === 0 || this.random() >= config.rate) return { kind: 'none' };
    const kind = this.apiKinds[Math.floor(this.random() * this.apiKinds.length)] as ApiFaultKind;
    const plan = this.plan(kind, config);
    this.injected[plan.kind === 'reject' ? kind : plan.kind] =
      (this.injected[plan.kind === 'reject' ? kind : plan.kind] ?? 0) + 1;
    return plan;
  }

  private plan(kind: ApiFaultKind, config: FaultConfig): FaultPlan {
    switch (kind) {
      case 'reset':
        return this.random() < 0.5 ? { kind: 'reset-before' } : { kind: 'reset-after' };
      case 'status500':
        return { kind: 'reject', problem: new HttpProblem(500, 'Injected fault: internal error') };
      case 'status503':
        return { kind: 'reject', problem: new HttpProblem(503, 'Injected fault: service unavailable') };
      case 'status429':
        return {
          kind: 'reject',
          problem: new HttpProblem(
            429,
            'Injected fault: too many requests',
            undefined,
            this.random() < 0.5 ? { 'retry-after': '1' } : undefined,
          ),
        };
      case 'slow':
        return { kind: 'slow', ms: config.slowMs ?? 2000 };
      case 'truncate':
        return { kind: 'truncate' };
    }
  }
}

/**
 * Rewires a response so the fault happens after the handler has done its work: the connection
 * drops instead of answering, the body is cut short, or the answer is delayed.
 */
export function applyResponseFault(res: ServerResponse, plan: FaultPlan): void {
  if (plan.kind === 'reset-after') {
    res.writeHead = (() => res) as unknown as ServerResponse['writeHead'];
    res.end = (() => {
      res.socket?.destroy();
      return res;
    }) as ServerResponse['end'];
  } else if (plan.kind === 'truncate') {
    const end = res.end.bind(res);
    res.end = ((chunk?: unknown) => {
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) {
        const bytes = Buffer.from(chunk as string);
        res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
        setImmediate(() => res.socket?.destroy());
        return res;
      }
      return end(chunk as undefined);
    }) as ServerResponse['end'];
  } else if (plan.kind === 'slow') {
    const end = res.end.bind(res);
    res.end = ((chunk?: unknown) => {
      const timer = setTimeout(() => end(chunk as undefined), plan.ms);
      res.once('close', () => clearTimeout(timer));
      return res;
    }) as ServerResponse['end'];
  }
}
