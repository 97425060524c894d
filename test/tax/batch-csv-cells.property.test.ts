import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RowOutput } from '../../src/node/batch-file/output/format.js';
import { OUTPUT_COLUMNS } from '../../src/node/batch-file/result-columns.js';
import {
  everyField,
  HEADER,
  hostileRow,
  inputCells,
  resultOf,
  startsFormula,
  wellFormed,
} from '../helpers/hostile-cells.js';

const TRIGGERS = '=+-@\t\r';
const SEPARATORS = ',;\t\r\n';

const plainNegative = (text: string) => /^-\d+(\.\d+)?$/.test(text);

/**
 * The documented CSV replacement, stated position by position: a `'` at the cell's start and after
 * each `,`, `;`, tab or line break in it when a formula character follows (behind any double
 * quotes), except before a plain negative number that ends the cell.
 */
function documentedCsvCell(text: string): string {
  const formulaAt = (i: number) => {
    let j = i;
    while (text[j] === '"') j++;
    return j < text.length && TRIGGERS.includes(text[j] as string) && !plainNegative(text.slice(i));
  };
  let out = formulaAt(0) ? "'" : '';
  for (let i = 0; i < text.length; i++) {
    out += text[i];
    if (SEPARATORS.includes(text[i] as string) && formulaAt(i + 1)) out += "'";
  }
  return out;
}

/** The CSV results of `rows` as the batch writer gives them, header first. */
function csvOf(
  delimiter: string,
  rows: Array<{ companyName: string; note: string; message: string }>,
): string {
  const out = new RowOutput(HEADER, 'csv', { delimiter, bom: false });
  return out.header() + rows.map((r, i) => out.line(resultOf(i + 1, r.message), inputCells(r))).join('');
}

const anyDelimiter = fc.constantFrom(',', ';', '\t');
const someRows = fc.array(hostileRow, { minLength: 1, maxLength: 4 });

describe('CSV output never lets a formula start a field, whichever of , ; or tab a spreadsheet splits at', () => {
  it('x,=1+1,y into a ; CSV and x;=cmd|... into a , CSV: every split field is text', () => {
    const cases: Array<[string, string]> = [
      [';', 'x,=1+1,y'],
      [',', "x;=cmd|' /C calc'!A0"],
      ['\t', 'a;@SUM(A1),+1'],
      [';', 'a,"=1+1'],
      [',', 'a\n=1+1'],
    ];
    for (const [delimiter, company] of cases) {
      const out = new RowOutput(HEADER, 'csv', { delimiter, bom: false });
      const line = out.line(resultOf(1, ''), ['DE', 'DE136695976', company, '']);
      expect(everyField(line).filter(startsFormula), line).toEqual([]);
    }
    const semicolon = new RowOutput(HEADER, 'csv', { delimiter: ';', bom: false });
    expect(semicolon.line(resultOf(1, ''), ['DE', 'DE136695976', 'x,=1+1,y', ''])).toMatch(
      /^DE;DE136695976;"x,'=1\+1,y";;1;2;/,
    );
  });

  it('a plain negative number stays a number, as the whole cell or after the last separator', () => {
    const out = new RowOutput(HEADER, 'csv', { delimiter: ';', bom: false });
    expect(out.line(resultOf(1, ''), ['DE', 'DE1', '-12.5', 'a,-5'])).toMatch(/^DE;DE1;-12\.5;a,-5;/);
    expect(out.line(resultOf(1, ''), ['DE', 'DE1', '-2+3', 'a,-5,b'])).toMatch(/^DE;DE1;'-2\+3;"a,'-5,b";/);
  });

  it('for any cells, no field of any split of any line starts a formula', () => {
    fc.assert(
      fc.property(anyDelimiter, someRows, (d, rows) => {
        const text = csvOf(d, rows);
        expect(everyField(text).filter(startsFormula)).toEqual([]);
      }),
      { numRuns: 2000, seed: 33 },
    );
  });
});

describe('a batch row reads back from CSV as written, with the documented formula prefix', () => {
  it('for any cells (controls, bidi overrides, U+FFFE, lone surrogates), read with csv-parse', () => {
    fc.assert(
      fc.property(anyDelimiter, someRows, (d, rows) => {
        const text = csvOf(d, rows);
        // As the file holds it: UTF-8, where a lone surrogate can only be U+FFFD.
        const records = parse(Buffer.from(text), { delimiter: d }) as string[][];
        expect(records[0]).toEqual([...HEADER, ...OUTPUT_COLUMNS]);
        expect(records.slice(1).map((rec) => [rec[2], rec[3], rec.at(-1)])).toEqual(
          rows.map((r) => [r.companyName, r.note, r.message].map((c) => wellFormed(documentedCsvCell(c)))),
        );
      }),
      { numRuns: 1000, seed: 34 },
    );
  });
});
