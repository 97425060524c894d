import { randomBytes } from 'node:crypto';
import { BoundedList } from './bounded-list.js';
import { type Clock, createClock } from './clock.js';
import { EventBus } from './events/bus.js';
import { FaultInjector } from './faults.js';
import { fixturePrincipals, type Principal } from './fixtures.js';
import { RateLimiter } from './rate-limit.js';

/** One line of the request log (`GET /__admin/requests`); keys are already redacted. */
export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  status: number;
  requestId: string;
  /** Masked key that authenticated the request, if any. */
  key: string | undefined;
}

/** Counters served by `GET /__admin/stats`. */
export interface ServerStats {
  requestsByRoute: Record<string, number>;
  validationsProcessed: number;
  idempotentReplays: number;
  /** Webhook events delivered (a 2xx answer), once per delivery. */
  webhooksSent: number;
  /** Webhook deliveries given up: every attempt failed, or lost by a fault (none is dropped). */
  webhooksFailed: number;
  /** Webhook delivery attempts made, first attempts and retries. */
  webhookAttempts: number;
  verificationFetches: number;
}

function emptyStats(): ServerStats {
  return {
    requestsByRoute: {},
    validationsProcessed: 0,
    idempotentReplays: 0,
    webhooksSent: 0,
    webhooksFailed: 0,
    webhookAttempts: 0,
    verificationFetches: 0,
  };
}

/** Shared, resettable state of one reference server. */
export class ServerState {
  readonly clock: Clock;
  readonly faults = new FaultInjector();
  /** The admin-switched rate limiter of API requests; off until `POST /__admin/rate-limit`. */
  readonly rateLimit: RateLimiter;
  /** Secret for signing cursors; new per server so a cursor of another server is foreign. */
  readonly secret: Buffer = randomBytes(32);
  principals: Map<string, Principal> = fixturePrincipals();
  stats: ServerStats = emptyStats();
  /** The last {@link MAX_LOG_ENTRIES} API requests, oldest first. */
  readonly requestLog = new BoundedList<RequestLogEntry>(MAX_LOG_ENTRIES);
  /** What happened, for the console; bounded. */
  readonly events: EventBus;
  private requestCounter = 0;
  private readonly resetHooks: Array<() => void> = [];

  /**
   * @param clock The server clock (default wall time that the admin API can move).
   * @param now Real time for the rate limiter, ms (default `performance.now()`).
   */
  constructor(clock?: Clock, now: () => number = () => performance.now()) {
    this.clock = clock ?? createClock();
    this.rateLimit = new RateLimiter(now);
    this.events = new EventBus(() => this.clock.now());
  }

  /** A new `Request-Id`. */
  nextRequestId(): string {
    this.requestCounter += 1;
    return `req_${this.requestCounter.toString(36).padStart(6, '0')}`;
  }

  /** Registers module state to restore on `reset`. */
  onReset(hook: () => void): void {
    this.resetHooks.push(hook);
  }

  /** Restores the fixture: keys, counters, logs, faults, the rate limit and every module's data. */
  reset(): void {
    this.principals = fixturePrincipals();
    this.stats = emptyStats();
    this.requestLog.clear();
    this.faults.configure(undefined);
    this.rateLimit.configure(undefined);
    this.clock.freeze(false);
    this.clock.set(Date.now());
    for (const hook of this.resetHooks) hook();
    this.events.reset();
  }

  /** ISO 8601 UTC with milliseconds for the current server time. */
  nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

/** Keeps the request log bounded. */
export const MAX_LOG_ENTRIES = 10_000;
