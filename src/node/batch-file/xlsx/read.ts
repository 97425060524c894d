import { BatchInputError } from '../errors.js';
import { batchesOf, type InputTable, isBlank, type TableRow } from '../table.js';
import type { OrderedWorkbook } from './zip/reorder.js';

/** Rows and columns of the largest sheet Excel opens; more is not a spreadsheet. */
const MAX_ROWS = 1_048_576;
/** Characters in one cell, as Excel limits them. */
const MAX_CELL = 32_767;

/** A number as a spreadsheet shows it: 15 significant digits, no exponent for whole numbers. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  const rounded = Number(value.toPrecision(15));
  return Number.isInteger(rounded) && Math.abs(rounded) < 1e21 ? rounded.toFixed(0) : String(rounded);
}

/** A date cell as ISO 8601: `2024-03-01`, or `2024-03-01 14:30:00` when it has a time. */
function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/**
 * The text of a cell value as exceljs reads it: a formula gives its cached result (never the
 * formula), a number its spreadsheet text (`136695976`, not `1.36695976e8`), a date ISO 8601,
 * rich text its plain text, an error its code (`#N/A`).
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText))
      return v.richText.map((run) => String((run as { text?: unknown }).text ?? '')).join('');
    if ('formula' in v || 'sharedFormula' in v) return cellText(v.result);
    if ('error' in v) return String(v.error);
    if ('text' in v) return cellText(v.text);
  }
  return '';
}

/** A row's cells (exceljs `row.values` is 1-based and sparse) as `width` strings, or all when undefined. */
function rowCells(values: unknown, width?: number): string[] {
  const list = Array.isArray(values) ? values : [];
  const n = width ?? Math.max(list.length - 1, 0);
  const cells: string[] = [];
  for (let i = 1; i <= n; i++) {
    const text = cellText(list[i]);
    if (text.length > MAX_CELL) throw new BatchInputError(`a cell holds more than ${MAX_CELL} characters`);
    cells.push(text);
  }
  return cells;
}

/** exceljs' streaming reader on the ordered workbook, loaded only when a workbook is read. */
async function workbookReader(workbook: OrderedWorkbook) {
  const { default: ExcelJS } = await import('exceljs');
  return new ExcelJS.stream.xlsx.WorkbookReader(workbook.stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles tell a date from a number.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
}

/**
 * Replaces each cached shared string by a flat copy: the XML parser's strings are slices and
 * concatenations of its input chunks and keep those alive (47 MB instead of 30 MB for 390,000
 * strings). A UTF-16 round trip copies every code unit as it is.
 */
function compactSharedStrings(reader: unknown): void {
  const list = (reader as { sharedStrings?: unknown }).sharedStrings;
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const text = list[i];
    if (typeof text === 'string' && text.length > 1)
      list[i] = Buffer.from(text, 'utf16le').toString('utf16le');
  }
}

type SheetRow = { number: number; values: unknown };

interface SheetReader extends AsyncIterable<SheetRow> {
  name?: string;
}

/** A workbook that exceljs could not read, as one line naming the file (its words, at most 200 characters). */
function readFailure(label: string, error: unknown): BatchInputError {
  if (error instanceof BatchInputError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new BatchInputError(
    `${label} cannot be read as an Excel workbook: ${message.replace(/\s+/g, ' ').slice(0, 200)}`,
  );
}

/** Walks the sheets to the one named `sheet` (case does not matter), or to the first. */
async function chooseSheet(
  sheets: AsyncIterator<SheetReader>,
  label: string,
  sheet: string | undefined,
): Promise<{ chosen: SheetReader; name: string }> {
  const names: string[] = [];
  try {
    for (;;) {
      const next = await sheets.next();
      if (next.done) break;
      const name = next.value.name ?? `Sheet${names.length + 1}`;
      names.push(name);
      if (sheet === undefined || name === sheet || name.toLowerCase() === sheet.toLowerCase())
        return { chosen: next.value, name };
    }
  } catch (error) {
    throw readFailure(label, error);
  }
  if (sheet === undefined) throw new BatchInputError(`${label} has no sheet`);
  throw new BatchInputError(
    `${label} has no sheet '${sheet}'; sheets: ${names.map((n) => `'${n}'`).join(', ') || 'none'}`,
  );
}

/** The rows of one sheet as they come, numbers checked; `close` ends the sheet and the workbook. */
interface SheetRows {
  next(): Promise<IteratorResult<SheetRow>>;
  close(): Promise<void>;
}

function sheetRows(
  chosen: SheetReader,
  sheets: AsyncIterator<SheetReader>,
  workbook: OrderedWorkbook,
  label: string,
  name: string,
): SheetRows {
  let rowIterator: AsyncIterator<SheetRow> | undefined = chosen[Symbol.asyncIterator]();
  // Ends the sheet, then walks the other sheets without reading them: exceljs keeps a temporary
  // copy of a sheet stored before the shared strings, and removes it only when walked past.
  // Then lets go of the reader and its shared strings.
  const close = async () => {
    const open = rowIterator;
    rowIterator = undefined;
    if (!open) return;
    await open.return?.().catch(() => {});
    try {
      while (!(await sheets.next()).done);
    } catch {
      // A broken archive past the sheet read: nothing more to clean up.
    }
    workbook.close();
  };
  const next = async (): Promise<IteratorResult<SheetRow>> => {
    if (!rowIterator) return { done: true, value: undefined };
    const row = await rowIterator.next().catch(async (error: unknown) => {
      await close();
      throw readFailure(label, error);
    });
    if (row.done) await close();
    if (!row.done && !(row.value.number >= 1 && row.value.number <= MAX_ROWS))
      throw new BatchInputError(`${label}: sheet '${name}' has a row numbered beyond ${MAX_ROWS}`);
    return row;
  };
  return { next, close };
}

/** The first row with content, trailing empty cells dropped, and its sheet row number. */
async function readHeader(
  rows: SheetRows,
  label: string,
  name: string,
): Promise<{ header: string[]; line: number }> {
  try {
    for (;;) {
      const next = await rows.next();
      if (next.done) break;
      const cells = rowCells(next.value.values);
      if (isBlank(cells)) continue;
      while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
      return { header: cells, line: next.value.number };
    }
  } catch (error) {
    await rows.close();
    throw readFailure(label, error);
  }
  await rows.close();
  throw new BatchInputError(`sheet '${name}' of ${label} is empty: a header row is required`);
}

/**
 * Reads a sheet of a checked workbook (the first, or the one named `sheet`) with exceljs'
 * streaming reader, its entries in the order that reader needs ({@link OrderedWorkbook}): the
 * first row with content is the header, trailing empty header cells are dropped, each row's
 * `line` is its sheet row number; every cell becomes text ({@link cellText}).
 */
export async function readWorkbook(
  workbook: OrderedWorkbook,
  label: string,
  sheet?: string,
): Promise<InputTable> {
  const reader = await workbookReader(workbook);
  const sheets = workbook.taking((reader as unknown as AsyncIterable<SheetReader>)[Symbol.asyncIterator]());
  const { chosen, name } = await chooseSheet(sheets, label, sheet).catch((error: unknown) => {
    workbook.close();
    throw error;
  });
  compactSharedStrings(reader);
  const source = sheetRows(chosen, sheets, workbook, label, name);
  const { header, line: headerLine } = await readHeader(source, label, name);
  const width = header.length;
  let last = headerLine;
  const rows: AsyncIterator<TableRow> = {
    next: async () => {
      for (;;) {
        const next = await source.next();
        if (next.done) return { done: true, value: undefined };
        // Rows come in order; a file that repeats or reverses numbers is read in file order.
        const line = next.value.number > last ? next.value.number : last + 1;
        last = line;
        const cells = rowCells(next.value.values, width);
        if (!isBlank(cells)) return { done: false, value: { cells, line } };
      }
    },
    return: async () => {
      await source.close();
      return { done: true, value: undefined };
    },
  };
  return {
    header,
    rows: { [Symbol.asyncIterator]: () => rows },
    batches: batchesOf({ [Symbol.asyncIterator]: () => rows }),
    dialect: undefined,
  };
}
