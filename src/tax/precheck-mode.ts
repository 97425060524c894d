import type { ValidationIssue } from '../core/errors/local-validation-error.js';
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
