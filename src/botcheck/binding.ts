import { LocalValidationError, type ValidationIssue } from '../core/errors/error-classes.js';
import type { Evaluation, EvaluationReason } from './evaluate.js';
import { parseLegacyTimestamp } from './legacy-time.js';

/**
 * Checks that tie a result to this site and to a time window. All optional; each one that fails
 * turns the decision into a reject with a reason code of its own.
 */
export interface BindingOptions {
  /**
   * Origins the captcha may have been solved on, e.g. `['https://www.example.com']`. The result's
   * `origin` (a page URL) must have one of these origins (scheme, host and port compared).
   * Reason `ORIGIN_MISMATCH`. Default: not checked.
   */
  expectedOrigins?: readonly string[];
  /**
   * What an empty `origin` means when `expectedOrigins` is set. Minimal-data mode empties the
   * request metadata, so such results carry no origin. `accept` (default) lets them pass this
   * check; `reject` rejects them with reason `ORIGIN_EMPTY`.
   */
  onEmptyOrigin?: 'accept' | 'reject';
  /**
   * Oldest result accepted, ms, counted from `verificationFinishedAt` (legacy: `releaseTimestamp`)
   * to `now`. Reason `TOO_OLD`, or `AGE_UNKNOWN` when the result has no readable timestamp.
   * Default: not checked.
   */
  maxAgeMs?: number;
  /** The captcha the result must belong to. Reason `CAPTCHA_ID_MISMATCH`. Default: not checked. */
  expectedCaptchaId?: string;
  /** Clock for `maxAgeMs`, epoch ms. Default: the client's clock (`Date.now`). */
  now?: () => number;
}

/** The fields the binding checks read; current results and legacy assessments both have them. */
export interface BindableResult {
  verificationId: string;
  captchaId?: string | undefined;
  origin?: string | null | undefined;
  verificationFinishedAt?: string | null | undefined;
  releaseTimestamp?: string | null | undefined;
}

function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** Checks binding options; throws {@link LocalValidationError} listing every problem. */
export function validateBinding(options: BindingOptions): void {
  const issues: ValidationIssue[] = [];
  const { expectedOrigins, onEmptyOrigin, maxAgeMs, expectedCaptchaId } = options;
  if (expectedOrigins !== undefined) {
    if (!Array.isArray(expectedOrigins) || expectedOrigins.length === 0) {
      issues.push({ path: 'expectedOrigins', message: 'must be a non-empty list of URLs' });
    } else {
      expectedOrigins.forEach((value, i) => {
        if (typeof value !== 'string' || originOf(value) === undefined) {
          issues.push({ path: `expectedOrigins.${i}`, message: 'must be an http(s) URL' });
        }
      });
    }
  }
  if (onEmptyOrigin !== undefined && onEmptyOrigin !== 'accept' && onEmptyOrigin !== 'reject') {
    issues.push({ path: 'onEmptyOrigin', message: 'must be accept or reject' });
  }
  if (maxAgeMs !== undefined && !(Number.isFinite(maxAgeMs) && maxAgeMs > 0)) {
    issues.push({ path: 'maxAgeMs', message: 'must be a positive number of milliseconds' });
  }
  if (expectedCaptchaId !== undefined && (typeof expectedCaptchaId !== 'string' || !expectedCaptchaId)) {
    issues.push({ path: 'expectedCaptchaId', message: 'must be a non-empty string' });
  }
  if (issues.length) throw new LocalValidationError(issues, 'binding options');
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/**
 * The binding checks that fail for `result`, as reject reasons (empty when all pass). Always
 * checks that the result is for `requestedId` (reason `VERIFICATION_ID_MISMATCH`): a server that
 * answers with another verification's result must not admit this request. Pure: no I/O.
 */
export function bindingFailures(
  result: BindableResult,
  requestedId: string,
  options: BindingOptions,
  now: () => number = Date.now,
): EvaluationReason[] {
  const failures: EvaluationReason[] = [];
  const answeredId = String(result.verificationId);
  if (answeredId !== requestedId && answeredId.toLowerCase() !== requestedId.toLowerCase()) {
    failures.push({
      code: 'VERIFICATION_ID_MISMATCH',
      message: `the service answered for another verification than ${requestedId}`,
    });
  }
  if (options.expectedCaptchaId !== undefined && result.captchaId !== options.expectedCaptchaId) {
    failures.push({ code: 'CAPTCHA_ID_MISMATCH', message: 'the result belongs to another captcha' });
  }
  if (options.expectedOrigins !== undefined) {
    const origin = result.origin ?? '';
    if (origin === '') {
      if (options.onEmptyOrigin === 'reject') {
        failures.push({ code: 'ORIGIN_EMPTY', message: 'the result has no origin (minimal-data mode)' });
      }
    } else {
      const expected = new Set(options.expectedOrigins.map(originOf));
      const actual = originOf(origin);
      if (actual === undefined || !expected.has(actual)) {
        failures.push({ code: 'ORIGIN_MISMATCH', message: 'the captcha was solved on another origin' });
      }
    }
  }
  if (options.maxAgeMs !== undefined) {
    const finished = parseLegacyTimestamp(result.verificationFinishedAt ?? result.releaseTimestamp);
    if (finished === undefined) {
      failures.push({ code: 'AGE_UNKNOWN', message: 'the result has no readable finish time' });
    } else {
      const age = (options.now ?? now)() - finished.getTime();
      if (age > options.maxAgeMs) {
        failures.push({
          code: 'TOO_OLD',
          message: `the verification finished ${seconds(age)} ago; at most ${seconds(options.maxAgeMs)} allowed`,
        });
      }
    }
  }
  return failures;
}

/** An evaluation with binding failures folded in: any failure rejects, failures listed first. */
export function withBinding(evaluation: Evaluation, failures: readonly EvaluationReason[]): Evaluation {
  if (failures.length === 0) return evaluation;
  return { decision: 'reject', reasons: [...failures, ...evaluation.reasons] };
}
