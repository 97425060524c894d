import { open } from 'node:fs/promises';
import { BatchInputError } from '../errors.js';
import type { InputTable } from '../table.js';
import { openCsv } from './csv.js';
import { inspectInput } from './encoding.js';

/** An opened input and what was learnt about it on the way. */
export interface OpenedInput {
  table: InputTable;
  /** Data rows, when counted before the run (CSV); undefined for a workbook. */
  rowsTotal: number | undefined;
  /** Set when a CSV without BOM was not valid UTF-8 and is read as this encoding instead. */
  fallback?: { encoding: string; invalidAt: number };
  /**
   * Opens the same table again from its first row, as it was read this time (same encoding,
   * delimiter or sheet), without inspecting the file again: for passes after the run.
   */
  reopen(): Promise<InputTable>;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];

async function magic(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const startsWith = (head: Buffer, bytes: number[]) => bytes.every((b, i) => head[i] === b);

/**
 * Opens a batch input as a table: an Excel workbook (`.xlsx`, recognised by its name or its zip
 * signature; `sheet` picks a sheet, default the first) or a CSV (encoding and delimiter detected,
 * `encoding` overrides). A legacy `.xls` or a file named `.xlsx` that is not a workbook is a
 * {@link BatchInputError}.
 */
export async function openInputTable(
  path: string,
  label: string,
  options: { encoding?: string; sheet?: string } = {},
): Promise<OpenedInput> {
  const head = await magic(path);
  const named = /\.xls[xm]$/i.test(label);
  if (startsWith(head, OLE))
    throw new BatchInputError(`${label} is a legacy Excel 97-2003 (.xls) file: save it as .xlsx or CSV`);
  if (startsWith(head, ZIP) || named) {
    if (!startsWith(head, ZIP))
      throw new BatchInputError(`${label} is not an Excel workbook (.xlsx): not a zip archive`);
    const { openWorkbook } = await import('../xlsx/open.js');
    return {
      table: await openWorkbook(path, label, options.sheet),
      rowsTotal: undefined,
      reopen: () => openWorkbook(path, label, options.sheet),
    };
  }
  if (options.sheet !== undefined)
    throw new BatchInputError(`${label} is a CSV file: --sheet applies only to an Excel workbook`);
  // One streamed pass: the encoding (BOM, option, or UTF-8 checked) and the row count for progress.
  const { encoding, rows } = await inspectInput(path, options.encoding);
  const table = await openCsv(path, encoding);
  return {
    table,
    rowsTotal: rows,
    reopen: () => openCsv(path, encoding),
    ...(encoding.source === 'fallback' && {
      fallback: { encoding: encoding.encoding, invalidAt: encoding.invalidAt ?? 0 },
    }),
  };
}
