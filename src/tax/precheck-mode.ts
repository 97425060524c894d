import type { ValidationIssue } from '../core/errors/local-validation-error.js';
import { precheck } from './precheck/index.js';

/**
 * How much of the offline pre-check blocks a request before it is sent:
 * - `off`: only the request schema;
 * - `structural` (default): what the API itself would refuse with 422 (the schema covers it);
 * - `strict`: also well-formed IDs whose format or check digit is wrong for their country.
 */
export type PrecheckMode = 'off' | 'structural' | 'strict';

export const PRECHECK_MODES: readonly PrecheckMode[] = ['off', 'structural', 'strict'];

const EXPLAIN: Record<string, string> = {
  FORMAT: 'does not have the format of a tax ID of this country',
  CHECKSUM: 'check digit does not match',
  LENGTH: 'has the wrong length',
};

/** The issue the strict pre-check raises for one ID, or undefined when it may be sent. */
export function strictPrecheckIssue(
  countryCode: string,
  rawValue: string,
  path = 'rawValue',
): ValidationIssue | undefined {
  const result = precheck(countryCode, rawValue);
  if (result.valid || result.code === 'UNSUPPORTED_COUNTRY') return undefined;
  return { path, message: `${EXPLAIN[result.code] ?? 'is not valid'} (${result.code})` };
}

/**
 * The value to send for an ID: the canonical registry form when the pre-check passes (so
 * `DE 136–695–976` goes out as `DE136695976`), else the normalized value; unchanged with mode `off`.
 */
export function rawValueToSend(
  countryCode: string,
  rawValue: string,
  mode: PrecheckMode = 'structural',
): string {
  if (mode === 'off') return rawValue;
  const result = precheck(countryCode, rawValue);
  return result.canonical ?? (result.normalized || rawValue);
}
