import { open } from 'node:fs/promises';
import { BatchInputError } from '../../errors.js';
import { readZipDirectory } from './directory.js';
import { readEntryData, unpackEntry } from './entry-data.js';
import { entryJudge, judgeDeclared, WORKBOOK_LIMITS, type WorkbookLimits } from './limits.js';

/** One entry of a checked workbook and the bytes it spans: local header, data, descriptor. */
export interface WorkbookPart {
  name: string;
  /** Where its local header starts. */
  start: number;
  /** Where the next entry starts. */
  end: number;
}

/** A checked workbook's entries in file order; they lie back to back from offset 0. */
export interface WorkbookLayout {
  parts: WorkbookPart[];
}

/**
 * Refuses a workbook that would take unbounded memory or time to read. First from its zip central
 * directory: not a zip, too many entries, declared sizes over the {@link WORKBOOK_LIMITS}, an entry
 * packed more tightly than real spreadsheets are. Then by unpacking every entry as a stream and
 * counting what really comes out (nothing is kept), stopping the moment a limit is passed: the
 * entries must lie one after the other as the directory places them (exceljs reads them in file
 * order), unpack to exactly their declared sizes and checksums, and a sheet's rows must stay under
 * `rowBytes`. Costs one extra unpacking of the file (about 1 s per 200 MB unpacked). Returns where
 * each entry lies, so that a reader can take them in the order it needs.
 */
export async function checkWorkbookArchive(
  path: string,
  label: string,
  limits: WorkbookLimits = WORKBOOK_LIMITS,
): Promise<WorkbookLayout> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const { entries, dirOffset } = await readZipDirectory(handle, size, label, limits.entries);
    judgeDeclared(entries, limits, label);
    const inFileOrder = [...entries].sort((a, b) => a.offset - b.offset);
    let expected = 0;
    let total = 0;
    const parts: WorkbookPart[] = [];
    for (const entry of inFileOrder) {
      // A gap or an overlap could hide an entry a sequential reader would find.
      if (entry.offset !== expected)
        throw new BatchInputError(
          `${label} is damaged or forged: ${entry.name} does not start where the entry before it ends`,
        );
      const judge = entryJudge(entry, limits, label);
      const data = await readEntryData(handle, entry, dirOffset, label);
      const before = total;
      await unpackEntry(handle, entry, data, label, (chunk, unpacked) => {
        total = before + unpacked;
        judge(chunk, unpacked, total);
      });
      parts.push({ name: entry.name, start: entry.offset, end: data.next });
      expected = data.next;
    }
    if (expected !== dirOffset)
      throw new BatchInputError(
        `${label} is damaged or forged: bytes between its last entry and its directory`,
      );
    return { parts };
  } finally {
    await handle.close();
  }
}
