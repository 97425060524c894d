import type { ValidationIssue } from '../core/errors/local-validation-error.js';
import type { PrecheckMode } from './enums.js';
import { precheck } from './precheck/index.js';

export { PRECHECK_MODES, type PrecheckMode } from './enums.js';

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
