import { readFileSync } from 'node:fs';
import { precheck } from '../../src/tax/precheck/index.js';

/** A valid German VAT number body derived from `seed` (8 digits + the check digit that passes). */
export function validDe(seed: number): string {
  const base = String(10000000 + (seed % 89999999));
  for (let d = 0; d < 10; d++) {
    const candidate = `${base}${d}`;
    if (precheck('DE', candidate).valid) return candidate;
  }
  throw new Error('no check digit found');
}

/** The same number with a wrong check digit. */
export function wrongCheckDigit(valid: string): string {
  const last = Number(valid.at(-1));
  for (let d = 1; d < 10; d++) {
    const candidate = valid.slice(0, -1) + String((last + d) % 10);
    if (precheck('DE', candidate).code === 'CHECKSUM') return candidate;
  }
  throw new Error('no wrong digit found');
}

/** Kinds of generated rows. */
export type RowKind = 'valid' | 'checksum' | 'structural';

/**
 * A CSV of `rows` data rows: every 33rd row structurally bad (value too long), every 20th a
 * check-digit failure, the rest valid. Returns the text and the kind of each row.
 */
export function makeCsv(
  rows: number,
  options: { delimiter?: string; bom?: boolean } = {},
): { text: string; kinds: RowKind[] } {
  const d = options.delimiter ?? ',';
  const kinds: RowKind[] = [];
  const lines = [['countryCode', 'vatId', 'metadata.customerId', 'companyName'].join(d)];
  for (let i = 1; i <= rows; i++) {
    let value = validDe(i * 7919);
    let kind: RowKind = 'valid';
    if (i % 33 === 0) {
      value = '9'.repeat(25);
      kind = 'structural';
    } else if (i % 20 === 0) {
      value = wrongCheckDigit(value);
      kind = 'checksum';
    }
    kinds.push(kind);
    lines.push(['DE', value, `cust-${i}`, `"Kunde ${i}${d} GmbH"`].join(d));
  }
  return { text: `${options.bom ? '\uFEFF' : ''}${lines.join('\n')}\n`, kinds };
}

/** The rows of a batch result file as `row:status:validationRequestId`, in file order. */
export const rowsOf = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const r = JSON.parse(l) as { row: number; status: string; validationRequestId?: string };
      return `${r.row}:${r.status}:${r.validationRequestId ?? ''}`;
    });
