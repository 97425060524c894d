import type { Writable } from 'node:stream';
import { csvLine, type OutputFormat, type TableView } from './output-format.js';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Renders a table with cli-table3 (loaded only when a table is printed). */
async function renderTable(view: TableView, color: boolean): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: view.head,
    style: color ? { head: ['cyan'], compact: true } : { head: [], border: [], compact: true },
  });
  for (const row of view.rows) table.push(row.map(cell));
  return `${table.toString()}\n`;
}

/**
 * Prints `data` in the chosen format: `json` is the object unchanged (pretty), `ndjson` one line
 * per element (or the object on one line), `table` and `csv` use the command's view.
 */
export async function printData(
  out: Writable,
  format: OutputFormat,
  data: unknown,
  view: () => TableView,
  color = false,
): Promise<void> {
  switch (format) {
    case 'json':
      out.write(`${JSON.stringify(data, null, 2)}\n`);
      return;
    case 'ndjson': {
      const items = Array.isArray(data) ? data : [data];
      out.write(items.map((item) => JSON.stringify(item)).join('\n') + (items.length ? '\n' : ''));
      return;
    }
    case 'csv': {
      const v = view();
      out.write(csvLine(v.head) + v.rows.map((r) => csvLine(r)).join(''));
      return;
    }
    case 'table':
      out.write(await renderTable(view(), color));
      return;
  }
}

/** A key/value table of selected fields, for single objects. */
export function fieldsView(pairs: Array<[string, unknown]>): TableView {
  return {
    head: ['field', 'value'],
    rows: pairs.filter(([, v]) => v !== undefined).map(([k, v]) => [k, cell(v)]),
  };
}
