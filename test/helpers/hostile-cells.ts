import fc from 'fast-check';
import type { BatchRowResult } from '../../src/tax/batch/types.js';

/** The input header of the rows written: a companyName and a metadata column among them. */
export const HEADER = ['countryCode', 'rawValue', 'companyName', 'metadata.note'];

// Any UTF-16 code unit (lone surrogates too: 'binary' yields only whole code points), whole code
// points, and the characters that matter here, often.
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const nasty = fc.constantFrom(
  ...'=+-@\t\r\n,;"\'0123456789. x',
  '\x00',
  '\x01',
  '\x1b',
  '\x7f',
  '\x85',
  '\x9b',
  '\u202e',
  '\u2066',
  '\u200f',
  '\ufeff',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udfff',
  '\u{1f600}',
  '_x0041_',
  "cmd|' /C calc'!A0",
);
/** A cell an attacker or a broken export may put in a file. */
export const hostileCell = fc.oneof(
  fc.string({ unit: nasty, maxLength: 14 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.string({ unit: codeUnit, maxLength: 10 }),
  fc.string({ unit: fc.oneof(nasty, codeUnit, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }),
);
/** The fuzzed parts of a batch row: two input cells (companyName, a metadata column) and the outcome message. */
export const hostileRow = fc.record({ companyName: hostileCell, note: hostileCell, message: hostileCell });

/** The outcome of row `n`, rejected with `message`. */
export function resultOf(n: number, message: string): BatchRowResult {
  return { row: n, line: n + 1, status: 'rejected', code: 'FORMAT', message } as BatchRowResult;
}

/** The input cells of a fuzzed row. */
export function inputCells(r: { companyName: string; note: string }): string[] {
  return ['DE', 'DE136695976', r.companyName, r.note];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` as UTF-8 carries it: a lone surrogate is not a character and becomes U+FFFD. */
export const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');

/** Characters that start a spreadsheet formula. */
const TRIGGERS = '=+-@\t\r';

/**
 * Every field a spreadsheet could cut out of a CSV line, splitting it at `,`, `;`, tab or a line
 * break and ignoring the quotes (as Excel does inside a field it did not open with a quote);
 * leading double quotes are taken off, as a field opened with a quote shows without them.
 */
export function everyField(text: string): string[] {
  return text.split(/[,;\t\r\n]/).map((field) => field.replace(/^"+/, ''));
}

/** A field a spreadsheet takes for a formula: a formula character first, but a plain negative number. */
export const startsFormula = (field: string) =>
  field !== '' && TRIGGERS.includes(field[0] as string) && !/^-\d+(\.\d+)?"?$/.test(field);
