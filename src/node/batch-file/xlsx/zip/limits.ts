import { BatchInputError } from '../../errors.js';
import type { ZipEntry } from './directory.js';
import { markerGaps } from './marker-gaps.js';

/** Limits a workbook must keep, on its declared and on its real (unpacked) bytes. */
export interface WorkbookLimits {
  /** Sum of the unpacked sizes of all entries. */
  totalBytes: number;
  /** One entry unpacked (a sheet is read as a stream, but unpacked twice: checked, then read). */
  entryBytes: number;
  /** The shared strings table, held in memory while the sheet is read. */
  sharedStringsBytes: number;
  /**
   * Rich text runs (`<r>`) in the shared strings table: exceljs keeps each as an object, about
   * 13 times the memory of its XML, where plain strings take 4 times.
   */
  sharedStringRuns: number;
  /** Each other part exceljs parses whole into memory: workbook.xml, its relationships, styles.xml. */
  partBytes: number;
  /** XML between two `</row>` of a sheet (exceljs holds a whole row before handing it over). */
  rowBytes: number;
  /** Unpacked size per packed byte above which an entry over `ratioFromBytes` is a zip bomb. */
  ratio: number;
  /** Entries smaller than this are not judged by their ratio (a tiny file can pack very well). */
  ratioFromBytes: number;
  /** Entries in the archive. */
  entries: number;
}

/** The limits `svc batch` and `runBatchFile` apply to a workbook input. */
export const WORKBOOK_LIMITS: Readonly<WorkbookLimits> = {
  totalBytes: 2 * 1024 ** 3,
  entryBytes: 1024 ** 3,
  // Measured: 64 MB of the costliest strings (short, distinct) peak at about 330 MB.
  sharedStringsBytes: 64 * 1024 ** 2,
  sharedStringRuns: 100_000,
  partBytes: 16 * 1024 ** 2,
  rowBytes: 16 * 1024 ** 2,
  // XML packs 10-30 times; 200 leaves room for sheets of repeated rows.
  ratio: 200,
  ratioFromBytes: 1024 ** 2,
  entries: 10_000,
};

const SHARED_STRINGS = /^xl\/sharedStrings\.xml$/i;
const WHOLE_PARTS = /^xl\/(workbook\.xml|_rels\/workbook\.xml\.rels|styles\.xml)$/i;
// exceljs' own test for a sheet, unanchored as it is.
const SHEET = /xl\/worksheets\/sheet\d+[.]xml/i;
const ROW_END = Buffer.from('</row>');
// A run's start tag: `<r` and what XML allows after a name. A `<r>` in a comment counts too: the
// count can only be too high.
const RUN_STARTS = ['>', '/', ' ', '\t', '\r', '\n'].map((after) => Buffer.from(`<r${after}`));

const mb = (n: number) => `${Math.round(n / 1024 ** 2)} MB`;

/**
 * Refuses an entry whose unpacked size `unpacked` (declared, or counted so far) passes a limit;
 * `total` includes it.
 */
function judgeSize(
  entry: ZipEntry,
  unpacked: number,
  total: number,
  limits: WorkbookLimits,
  label: string,
): void {
  if (total > limits.totalBytes)
    throw new BatchInputError(`${label} unpacks to more than ${mb(limits.totalBytes)}: save it as CSV`);
  if (SHARED_STRINGS.test(entry.name)) {
    if (unpacked > limits.sharedStringsBytes)
      throw new BatchInputError(
        `${label} has a shared strings table of ${unpacked === entry.unpacked ? '' : 'more than '}${mb(unpacked)} (limit ${mb(limits.sharedStringsBytes)}): save it as CSV`,
      );
  } else {
    const limit = WHOLE_PARTS.test(entry.name) ? limits.partBytes : limits.entryBytes;
    if (unpacked > limit)
      throw new BatchInputError(
        `${label} looks like a zip bomb: ${entry.name} unpacks to more than ${mb(limit)}`,
      );
  }
  if (unpacked > limits.ratioFromBytes && unpacked > entry.packed * limits.ratio)
    throw new BatchInputError(
      `${label} looks like a zip bomb: ${entry.name} unpacks ${Math.round(unpacked / Math.max(entry.packed, 1))} times its size`,
    );
}

/** The cheap first filter: the sizes the central directory declares, before a byte is inflated. */
export function judgeDeclared(entries: ZipEntry[], limits: WorkbookLimits, label: string): void {
  let total = 0;
  const names = new Set<string>();
  for (const entry of entries) {
    total += entry.unpacked;
    judgeSize(entry, entry.unpacked, total, limits, label);
    // A reader keeps one of two same-named parts, the check may have judged the other.
    if (names.has(entry.name))
      throw new BatchInputError(`${label} is damaged or forged: ${entry.name} is in it twice`);
    names.add(entry.name);
  }
  if (!entries.some((e) => /^xl\/workbook\.xml$/i.test(e.name)))
    throw new BatchInputError(`${label} is a zip archive but not an Excel workbook (.xlsx)`);
}

/**
 * The judge of one entry as it is unpacked: called with each chunk that comes out, the bytes of
 * the entry so far and of the archive so far (this entry included); throws at the first limit
 * passed (sizes and ratio as {@link judgeDeclared} judges them, a sheet's row bytes, the shared
 * strings' rich text runs).
 */
export function entryJudge(
  entry: ZipEntry,
  limits: WorkbookLimits,
  label: string,
): (chunk: Buffer, unpacked: number, total: number) => void {
  const rows = SHEET.test(entry.name) ? markerGaps(ROW_END) : undefined;
  const runs = SHARED_STRINGS.test(entry.name) ? RUN_STARTS.map(markerGaps) : [];
  return (chunk, unpacked, total) => {
    judgeSize(entry, unpacked, total, limits, label);
    if (rows && rows(chunk).longest > limits.rowBytes)
      throw new BatchInputError(
        `${label}: ${entry.name} has a row of more than ${mb(limits.rowBytes)}: save it as CSV`,
      );
    if (runs.length > 0 && runs.reduce((n, seen) => n + seen(chunk).count, 0) > limits.sharedStringRuns)
      throw new BatchInputError(
        `${label} has more than ${limits.sharedStringRuns} rich text runs in its shared strings: save it as CSV`,
      );
  };
}
