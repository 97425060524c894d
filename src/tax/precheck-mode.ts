import type { ValidationIssue } from '../core/errors/error-classes.js';
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

/** What the pre-check decides for one ID before it is sent. */
export interface PrecheckDecision {
  /** Set when the ID is refused: the pre-check code (`FORMAT`, `LENGTH`, `CHECKSUM`). */
  code?: string;
  /** Set when refused: why, e.g. `has the wrong length (LENGTH)`. */
  message?: string;
  /** The value to send (see {@link rawValueToSend}). */
  rawValue: string;
}

/**
 * The pre-check's decision for one ID in `mode`, from one run of the pre-check: `strict` refuses
 * everything `svc precheck` refuses (FORMAT, LENGTH, CHECKSUM; an unsupported country is left to
 * the registry), `structural` only a number of the wrong shape (FORMAT, LENGTH), `off` nothing.
 */
export function precheckDecision(
  countryCode: string,
  rawValue: string,
  mode: PrecheckMode,
): PrecheckDecision {
  if (mode === 'off') return { rawValue };
  const result = precheck(countryCode, rawValue);
  const send = result.canonical ?? (result.normalized || rawValue);
  if (result.valid || result.code === 'UNSUPPORTED_COUNTRY') return { rawValue: send };
  if (mode !== 'strict' && !SHAPE_CODES.has(result.code)) return { rawValue: send };
  return {
    code: result.code,
    message: `${EXPLAIN[result.code] ?? 'is not valid'} (${result.code})`,
    rawValue: send,
  };
}

/**
 * The issue the pre-check raises for one ID in `mode`, or undefined when it may be sent (see
 * {@link precheckDecision}). The message ends with the code in brackets.
 */
export function precheckIssue(
  countryCode: string,
  rawValue: string,
  mode: PrecheckMode,
  path = 'rawValue',
): ValidationIssue | undefined {
  const { message } = precheckDecision(countryCode, rawValue, mode);
  return message === undefined ? undefined : { path, message };
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
