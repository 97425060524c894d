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
  return precheckIssue(countryCode, rawValue, 'strict', path);
}

/** Pre-check codes that mean a number of the wrong shape: never worth a registry call. */
const SHAPE_CODES: ReadonlySet<string> = new Set(['FORMAT', 'LENGTH']);

/**
 * The issue the pre-check raises for one ID in `mode`, or undefined when it may be sent: `strict`
 * refuses everything `svc precheck` refuses (FORMAT, LENGTH, CHECKSUM; an unsupported country is
 * left to the registry), `structural` only a number of the wrong shape (FORMAT, LENGTH), `off`
 * nothing. The message ends with the code in brackets, e.g. `has the wrong length (LENGTH)`.
 */
export function precheckIssue(
  countryCode: string,
  rawValue: string,
  mode: PrecheckMode,
  path = 'rawValue',
): ValidationIssue | undefined {
  if (mode === 'off') return undefined;
  const result = precheck(countryCode, rawValue);
  if (result.valid || result.code === 'UNSUPPORTED_COUNTRY') return undefined;
  if (mode !== 'strict' && !SHAPE_CODES.has(result.code)) return undefined;
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
