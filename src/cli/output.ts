import type { Writable } from 'node:stream';
import stringWidth from 'string-width';
import { type CsvStyle, csvHeaderLine, csvLine } from '../core/csv-line.js';
import { ID_COLUMNS } from './output-contract.js';
import type { OutputFormat, TableView } from './output-format.js';
import { escapeForTerminal, jsonForTerminal } from './terminal-safe.js';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** cli-table3's padding: one space either side of a cell. */
const CELL_PADDING = 2;
/** The narrowest a cut column gets: one character and the ellipsis, plus padding. */
const MIN_COLUMN = 2 + CELL_PADDING;

/**
 * Column widths (padding included) that fit `width` terminal columns, borders included: columns
 * that fit keep their width, and the widest ones are cut to one shared limit (as gh does), so a
 * narrow column is never squeezed for a wide one. No column is cut below its `floor` (an id
 * column's whole width, see {@link ID_COLUMNS}): when the floors alone are wider than the
 * terminal, the table is too, and the terminal wraps its lines, but an id is never cut. Widths
 * are display widths (`string-width`, which cli-table3 uses too): a full-width character or an
 * emoji counts as two columns. Undefined when the table fits as it is.
 */
export function fitColumns(
  natural: readonly number[],
  width: number,
  floors: readonly number[] = [],
): number[] | undefined {
  const borders = natural.length + 1;
  const total = natural.reduce((sum, w) => sum + w, borders);
  if (total <= width) return undefined;
  const budget = width - borders;
  const capped = (w: number, i: number, cap: number) =>
    Math.max(Math.min(w, cap), Math.min(w, floors[i] ?? 0));
  // The largest limit whose capped widths still fit the budget.
  let limit = Math.max(...natural);
  const used = (cap: number) => natural.reduce((sum, w, i) => sum + capped(w, i, cap), 0);
  while (limit > MIN_COLUMN && used(limit) > budget) limit -= 1;
  return natural.map((w, i) => capped(w, i, limit));
}

/**
 * How narrow each column of a view may be cut (padding included): a column whose header is an
 * id keeps its whole width; in a one-object table, the value column keeps the width of its widest
 * id, and the field column that of the widest field name beside an id, so each id is shown
 * whole next to its name. Other columns may be cut to the minimum.
 */
function columnFloors(view: TableView, head: string[], rows: string[][]): number[] {
  const widest = (cells: string[]) => Math.max(0, ...cells.map((c) => stringWidth(c))) + CELL_PADDING;
  if (view.record) {
    const idRows = rows.filter((_, r) => ID_COLUMNS.has(String(view.rows[r]?.[0])));
    return idRows.length
      ? [widest(idRows.map((row) => row[0] ?? '')), widest(idRows.map((row) => row[1] ?? ''))]
      : [];
  }
  return head.map((h, i) =>
    ID_COLUMNS.has(view.head[i] as string) ? widest([h, ...rows.map((row) => row[i] ?? '')]) : 0,
  );
}

/** Options of {@link printData}. */
export interface PrintOptions {
  /** Colour the table header. Default false. */
  color?: boolean;
  /**
   * Terminal width a table must fit, cells cut with an ellipsis (set when stdout is a terminal).
   * Default: no limit.
   */
  width?: number | undefined;
  /** Delimiter and BOM of CSV output (`--delimiter`, `--bom`). Default `,` without a BOM. */
  csv?: CsvStyle | undefined;
}

/**
 * Renders a table with cli-table3 (loaded only when a table is printed). Every cell and header
 * is shown with control characters escaped: a table is terminal text, and its strings come from
 * the network or a file. With a width, columns are cut to fit it, never an id ({@link fitColumns}).
 */
async function renderTable(view: TableView, options: PrintOptions): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const head = view.head.map((h) => escapeForTerminal(h));
  const rows = view.rows.map((row) => row.map((value) => escapeForTerminal(cell(value))));
  const natural = head.map(
    (h, i) => Math.max(stringWidth(h), ...rows.map((row) => stringWidth(row[i] ?? ''))) + CELL_PADDING,
  );
  const colWidths =
    options.width === undefined
      ? undefined
      : fitColumns(natural, options.width, columnFloors(view, head, rows));
  const table = new Table({
    head,
    ...(colWidths && { colWidths }),
    truncate: '…',
    style: options.color ? { head: ['cyan'], compact: true } : { head: [], border: [], compact: true },
  });
  for (const row of rows) table.push(row);
  return `${table.toString()}\n`;
}

/**
 * The CSV of a view in `style` (the writer `svc batch` uses: formula-safe, quoted as needed): a
 * field list (from {@link fieldsView}) is one row with the fields as header.
 */
function renderCsv(view: TableView, style: CsvStyle): string {
  const line = (values: readonly unknown[]) => csvLine(values, style.delimiter);
  if (view.record) {
    return (
      csvHeaderLine(
        view.rows.map((r) => r[0]),
        style,
      ) + line(view.rows.map((r) => r[1]))
    );
  }
  return csvHeaderLine(view.head, style) + view.rows.map(line).join('');
}

/**
 * Prints `data` in the chosen format: `json` is the object unchanged (pretty), `ndjson` one line
 * per element (or the object on one line), `table` and `csv` use the command's view. JSON,
 * NDJSON and CSV are data and carry every string exactly (JSON with C1 controls and bidi marks
 * as `\uXXXX` escapes, which decode to the same string; CSV with formula neutralisation); only
 * the table, which is terminal text, shows control characters escaped.
 */
export async function printData(
  out: Writable,
  format: OutputFormat,
  data: unknown,
  view: () => TableView,
  options: PrintOptions = {},
): Promise<void> {
  switch (format) {
    case 'json':
      out.write(`${jsonForTerminal(data, 2)}\n`);
      return;
    case 'ndjson': {
      const items = Array.isArray(data) ? data : [data];
      out.write(items.map((item) => jsonForTerminal(item)).join('\n') + (items.length ? '\n' : ''));
      return;
    }
    case 'csv':
      out.write(renderCsv(view(), options.csv ?? { delimiter: ',', bom: false }));
      return;
    case 'table':
      out.write(await renderTable(view(), options));
      return;
  }
}

/**
 * A key/value view of selected fields, for single objects: a two-column `field | value` table,
 * and in CSV one row under a header of the field names.
 */
export function fieldsView(pairs: Array<[string, unknown]>): TableView {
  return {
    head: ['field', 'value'],
    rows: pairs.filter(([, v]) => v !== undefined).map(([k, v]) => [k, cell(v)]),
    record: true,
  };
}
