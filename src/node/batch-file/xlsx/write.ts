import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createAtomicFile } from '../../fs/atomic-file.js';
import { inputColumnNames, NUMBER_COLUMNS, OUTPUT_COLUMNS } from '../result-columns.js';
import { WorkbookCells } from './text.js';

/** Fill colours of the outcome cell: VALID green, INVALID red, any other outcome amber (not conclusive). */
export const OUTCOME_FILLS: Readonly<Record<string, string>> = {
  VALID: 'FFC6EFCE',
  INVALID: 'FFFFC7CE',
  other: 'FFFFEB9C',
};

const fill = (argb: string) => ({ type: 'pattern' as const, pattern: 'solid' as const, fgColor: { argb } });

/**
 * Writes the results workbook from a rows file (`RowOutput` format `rows`, one JSON line per
 * row), streamed with exceljs' `WorkbookWriter` (loaded only here): one sheet `Results` with the
 * input's columns then {@link OUTPUT_COLUMNS}, the header row bold and frozen, an autofilter over
 * the header, the outcome cell coloured ({@link OUTCOME_FILLS}). Every cell is written as text
 * (`row` and `line` as numbers), so nothing in it can be a formula. A character a workbook cannot
 * hold becomes U+FFFD and line ends line feeds ({@link WorkbookCells}), so the workbook always
 * reads back; resolves to the number of cells that had such a character replaced. The workbook is
 * written to a private temporary file beside `path`, fsynced and renamed over it when complete
 * (core/atomic-file.ts).
 */
export async function writeWorkbook(
  rowsPath: string,
  path: string,
  inputHeader: readonly string[],
  mode: number,
): Promise<number> {
  const { default: ExcelJS } = await import('exceljs');
  // Created exclusively and private before exceljs writes to it, through the handle (never by name).
  const temp = await createAtomicFile(path, { mode });
  const cells = new WorkbookCells();
  try {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: temp.writable(),
      useStyles: true,
      useSharedStrings: false,
    });
    const names = [...inputColumnNames(inputHeader), ...OUTPUT_COLUMNS].map((name) => cells.text(name));
    const sheet = workbook.addWorksheet('Results', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: names.length } };
    const header = sheet.addRow(names);
    header.font = { bold: true };
    header.commit();
    const outcomeColumn = inputHeader.length + OUTPUT_COLUMNS.indexOf('outcome') + 1;
    const lines = createInterface({ input: createReadStream(rowsPath), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const text of lines) {
      if (text === '') continue;
      const parsed = JSON.parse(text) as Record<string, unknown> & { cells?: unknown[] };
      const values: Array<string | number> = inputHeader.map((_, i) =>
        cells.text(String(parsed.cells?.[i] ?? '')),
      );
      for (const c of OUTPUT_COLUMNS) {
        const value = parsed[c];
        values.push(
          value === undefined || value === null
            ? ''
            : NUMBER_COLUMNS.has(c) && typeof value === 'number'
              ? value
              : cells.text(String(value)),
        );
      }
      const row = sheet.addRow(values);
      const outcome = parsed.outcome;
      if (typeof outcome === 'string' && outcome !== '')
        row.getCell(outcomeColumn).fill = fill(OUTCOME_FILLS[outcome] ?? (OUTCOME_FILLS.other as string));
      row.commit();
    }
    sheet.commit();
    await workbook.commit();
  } catch (error) {
    await temp.discard();
    throw error;
  }
  await temp.commit();
  return cells.replacedCells;
}
