import type { InputTable } from '../table.js';
import { readWorkbook } from './read.js';
import { checkWorkbookArchive } from './zip/check.js';
import { orderedWorkbook } from './zip/reorder.js';

/**
 * Opens a sheet of an `.xlsx` workbook as a table (the first, or the one named `sheet`): the
 * archive is checked first ({@link checkWorkbookArchive}: sizes, ratios, layout), its entries put
 * in the order exceljs' streaming reader needs ({@link orderedWorkbook}), then the sheet is read
 * ({@link readWorkbook}).
 */
export async function openWorkbook(path: string, label: string, sheet?: string): Promise<InputTable> {
  const layout = await checkWorkbookArchive(path, label);
  const workbook = orderedWorkbook(path, layout);
  return readWorkbook(workbook, label, sheet);
}
