import { LocalValidationError, type ValidationIssue } from './errors/error-classes.js';

/** The longest delay a Node timer honours, ms; a longer one fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** The numeric settings of the client that need checking before use. */
export interface NumericOptions {
  /** Silence allowed per attempt, ms: more than 0, at most {@link MAX_TIMER_MS}. */
  timeoutMs?: number;
  /** Total budget of a call, ms: more than 0, at most {@link MAX_TIMER_MS}. */
  deadlineMs?: number;
  /** Retries: a whole number, 0 or more. */
  maxRetries?: number;
  /** Sockets per origin: a whole number, 1 or more. */
  connections?: number;
}

function duration(name: string, value: unknown, issues: ValidationIssue[]): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS) {
    issues.push({
      path: name,
      message: `must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}, got ${String(value)}`,
    });
  }
}

function count(name: string, value: unknown, min: number, issues: ValidationIssue[]): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    issues.push({ path: name, message: `must be a whole number of at least ${min}, got ${String(value)}` });
  }
}

/**
 * Checks the numeric client options, so `timeoutMs: -5` (or `NaN`, or a timeout too long for a
 * timer) is refused when the client is created instead of failing every request later.
 *
 * @throws {LocalValidationError} listing every bad option.
 */
export function checkNumericOptions(options: NumericOptions): void {
  const issues: ValidationIssue[] = [];
  duration('timeoutMs', options.timeoutMs, issues);
  duration('deadlineMs', options.deadlineMs, issues);
  count('maxRetries', options.maxRetries, 0, issues);
  count('connections', options.connections, 1, issues);
  if (issues.length > 0) throw new LocalValidationError(issues, 'client options');
}
