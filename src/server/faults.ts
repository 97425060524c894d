import type { ServerResponse } from 'node:http';
import { HttpProblem } from './problem.js';
import { seededRandom } from './random.js';

/** Kinds of injected failure. `reset` drops the connection before or after the request is processed. */
export const FAULT_KINDS = ['reset', 'status500', 'status503', 'slow', 'truncate', 'status429'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Fault injection settings (admin `POST /__admin/faults`). */
export interface FaultConfig {
  /** Share of API requests that fail, 0 to 1. */
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
  /** Faults injected so far, by kind. */
  readonly injected: Record<string, number> = {};

  configure(config: FaultConfig | undefined): void {
    this.config = config && config.rate > 0 && config.kinds.length > 0 ? config : undefined;
    this.random = seededRandom(config?.seed ?? 0);
    for (const key of Object.keys(this.injected)) delete this.injected[key];
  }

  get current(): FaultConfig | undefined {
    return this.config;
  }

  next(): FaultPlan {
    const config = this.config;
    if (!config || this.random() >= config.rate) return { kind: 'none' };
    const kind = config.kinds[Math.floor(this.random() * config.kinds.length)] as FaultKind;
    const plan = this.plan(kind, config);
    this.injected[plan.kind === 'reject' ? kind : plan.kind] =
      (this.injected[plan.kind === 'reject' ? kind : plan.kind] ?? 0) + 1;
    return plan;
  }

  private plan(kind: FaultKind, config: FaultConfig): FaultPlan {
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
