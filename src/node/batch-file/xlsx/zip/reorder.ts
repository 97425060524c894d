import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import type { WorkbookLayout, WorkbookPart } from './check.js';
import { fileRange } from './file-range.js';

/**
 * A checked workbook as the stream exceljs' `WorkbookReader` reads, its entries in the order that
 * reader needs. Two things in exceljs 4.4 (and the unzipper it reads with) depend on the order in
 * which a file stores its entries:
 *
 * - A sheet is named from `xl/workbook.xml` and parsed at once when the shared strings and the
 *   workbook relationships were read before it; a sheet stored after those but before
 *   `workbook.xml` failed on every read (`Cannot read properties of undefined (reading 'sheets')`).
 *   A sheet stored before them is copied to a temporary file and parsed at the end.
 * - unzipper's parser announces the end of the archive as soon as it has parsed the end record,
 *   even when entries it parsed are still queued for the reader, and the reader stops at that
 *   announcement: the queued entries are dropped. That happens whenever the reader is slower than
 *   the parser, e.g. while it copies a sheet to a temporary file under Windows Node (there it
 *   dropped `workbook.xml` on most reads of a workbook saved by exceljs or LibreOffice).
 *
 * So the parts every sheet needs come first (workbook, its relationships, shared strings, styles:
 * an empty table or list stands in for a missing one, so no sheet waits in a temporary file), the
 * other entries next, the sheets last, and the end record only once the reader has taken the last
 * sheet ({@link OrderedWorkbook.taking}). Entries are copied byte for byte; unzipper reads the
 * local entries in sequence and needs no central directory.
 */

/** The parts exceljs looks for by exact name, in the order they are given to it. */
const FIRST = ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/sharedStrings.xml', 'xl/styles.xml'];

/** exceljs' own test for a sheet (unanchored and case-sensitive, as it is). */
const SHEET = /xl\/worksheets\/sheet\d+[.]xml/;

/** What stands in for a part the file lacks, so that exceljs parses each sheet in place. */
const STAND_INS: Record<string, string> = {
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>',
  'xl/sharedStrings.xml':
    '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
};

/** A stored (uncompressed) zip entry: local header, name, data. */
function storedEntry(name: string, text: string): Buffer {
  const nameBytes = Buffer.from(name);
  const data = Buffer.from(text);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(10, 4);
  header.writeUInt32LE(crc32(data), 14);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(nameBytes.length, 26);
  return Buffer.concat([header, nameBytes, data]);
}

/** An end-of-central-directory record for an empty directory: where unzipper stops. */
function endRecord(): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  return record;
}

/** The workbook given to exceljs, and the hooks that keep its end back. */
export interface OrderedWorkbook {
  /** The entries in reading order, then the end record once released. */
  readonly stream: Readable;
  /** How many sheets exceljs will hand out. */
  readonly sheets: number;
  /**
   * exceljs' sheets, counted: once the last one was handed out, the end record follows (no entry
   * is left for unzipper to drop). Walk all sheets through it, or call {@link close}.
   */
  taking<T>(sheets: AsyncIterator<T>): AsyncIterator<T>;
  /** Ends the stream and closes the file, wherever the reading stands. Safe to call twice. */
  close(): void;
}

/** The file's entries (and stand-ins) in the order exceljs needs them. */
function readingOrder(layout: WorkbookLayout): Array<WorkbookPart | Buffer> {
  const byName = new Map(layout.parts.map((part) => [part.name, part]));
  const first: Array<WorkbookPart | Buffer> = [];
  for (const name of FIRST) {
    const part = byName.get(name);
    const standIn = STAND_INS[name];
    if (part) first.push(part);
    else if (standIn !== undefined) first.push(storedEntry(name, standIn));
  }
  const rest = layout.parts.filter((part) => !FIRST.includes(part.name));
  return [
    ...first,
    ...rest.filter((part) => !SHEET.test(part.name)),
    ...rest.filter((part) => SHEET.test(part.name)),
  ];
}

/** Opens the checked workbook at `path` as exceljs should read it (see the module comment). */
export function orderedWorkbook(path: string, layout: WorkbookLayout): OrderedWorkbook {
  const order = readingOrder(layout);
  const sheets = layout.parts.filter((part) => SHEET.test(part.name)).length;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  async function* bytes(): AsyncGenerator<Buffer> {
    const handle = await open(path, 'r');
    try {
      for (const piece of order) {
        if (Buffer.isBuffer(piece)) yield piece;
        else yield* fileRange(handle, piece.start, piece.end);
      }
      await released;
      yield endRecord();
    } finally {
      await handle.close();
    }
  }
  const stream = Readable.from(bytes(), { objectMode: false });
  if (sheets === 0) release();
  return {
    stream,
    sheets,
    taking<T>(iterator: AsyncIterator<T>): AsyncIterator<T> {
      let taken = 0;
      return {
        async next() {
          const next = await iterator.next();
          if (!next.done && ++taken >= sheets) release();
          return next;
        },
      };
    },
    close() {
      // Released first: a generator waiting for the release cannot be stopped.
      release();
      stream.destroy();
    },
  };
}
