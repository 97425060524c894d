import { HttpProblem } from './problem.js';

/** Rate limiter settings (admin `POST /__admin/rate-limit`). */
export interface RateLimitConfig {
  /** API requests answered per second (a token bucket refilled at this rate); 0 switches the limiter off. */
  perSecond: number;
  /** Requests let through at once after a quiet spell (the bucket's size). Default `perSecond` rounded up, at least 1. */
  burst?: number;
  /** Whether a 429 carries `Retry-After` (whole seconds until a request would pass, at least 1). Default true. */
  retryAfter?: boolean;
}

/**
 * A token bucket over every API request (never admin or console ones): past the rate, a request is
 * answered 429 with the API's problem body, with or without `Retry-After`, and counted. Measured
 * with its own real clock (`now`), never the server clock that tests move.
 */
export class RateLimiter {
  private config: Required<RateLimitConfig> | undefined;
  private tokens = 0;
  private refilledAt = 0;
  /** Requests answered 429 since the limiter was last configured. */
  limited = 0;

  constructor(private readonly now: () => number) {}

  /** Switches the limiter on with `config`, or off (`undefined`, or `perSecond` 0); the bucket starts full. */
  configure(config: RateLimitConfig | undefined): void {
    this.limited = 0;
    if (!config || !(config.perSecond > 0)) {
      this.config = undefined;
      return;
    }
    const burst = config.burst ?? Math.max(1, Math.ceil(config.perSecond));
    this.config = { perSecond: config.perSecond, burst, retryAfter: config.retryAfter ?? true };
    this.tokens = burst;
    this.refilledAt = this.now();
  }

  /** The settings in force, defaults filled in; undefined when off. */
  get current(): Required<RateLimitConfig> | undefined {
    return this.config;
  }

  /** Takes a token for one request: undefined when it may pass, else the 429 to answer. */
  take(): HttpProblem | undefined {
    const config = this.config;
    if (!config) return undefined;
    const now = this.now();
    this.tokens = Math.min(config.burst, this.tokens + ((now - this.refilledAt) * config.perSecond) / 1000);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    this.limited += 1;
    const seconds = Math.max(1, Math.ceil((1 - this.tokens) / config.perSecond));
    return new HttpProblem(
      429,
      `Rate limit of ${config.perSecond} requests per second exceeded`,
      undefined,
      config.retryAfter ? { 'retry-after': String(seconds) } : undefined,
    );
  }
}
