import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowOutput } from '../../src/node/batch-file/output/format.js';
import { OUTPUT_COLUMNS } from '../../src/node/batch-file/result-columns.js';
import type { BatchRowResult } from '../../src/tax/batch/types.js';

/** The NDJSON line as documented: the outcome fields that are set, then `input` by header name. */
function documentedLine(header: string[], result: BatchRowResult, cells: string[]): string {
  const line: Record<string, unknown> = {};
  for (const c of OUTPUT_COLUMNS) if (result[c] !== undefined) line[c] = result[c];
  const input: Record<string, string> = {};
  header.forEach((name, i) => {
    input[name] = cells[i] ?? '';
  });
  line.input = input;
  return `${JSON.stringify(line)}\n`;
}

const text = fc.string({ unit: 'binary', maxLength: 12 });
const result = fc.record(
  {
    row: fc.nat(),
    line: fc.nat(),
    status: fc.constantFrom('submitted', 'completed', 'rejected', 'failed'),
    outcome: text,
    provider: fc.option(text),
    registryCompanyName: fc.option(text),
    validationRequestId: text,
    code: text,
    message: text,
  },
  { requiredKeys: ['row', 'status'] },
) as fc.Arbitrary<BatchRowResult>;

describe('an NDJSON results line is the JSON of the outcome fields and the input cells by header name', () => {
  it('for any header (duplicates, numbers, __proto__ included), cells and outcome', () => {
    const name = fc.oneof(text, fc.constantFrom('1', '0', '__proto__', 'row', 'input', 'a"b'));
    fc.assert(
      fc.property(
        fc.array(name, { minLength: 1, maxLength: 6 }),
        result,
        fc.array(text, { maxLength: 8 }),
        (header, r, cells) => {
          expect(new RowOutput(header, false).line(r, cells)).toBe(documentedLine(header, r, cells));
        },
      ),
      { numRuns: 2000, seed: 99 },
    );
  });
});
