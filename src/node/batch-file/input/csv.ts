import { createReadStream, type ReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { BatchInputError } from '../errors.js';
import { type InputTable, isBlank, rowsOf, type TableRow } from '../table.js';
import { decodeBytes, decodingStream, type InputEncoding } from './encoding.js';

/** Bytes of the input read at a time while rows are sent. */
const READ_BYTES = 16 * 1024;

/** UTF-8, with or without a BOM (csv-parse drops it): the default reading. */
const UTF8: InputEncoding = { encoding: 'utf-8', bomBytes: 0, source: 'default' };

/** Largest CSV record accepted; a larger one is one clear error instead of unbounded memory. */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** Picks `,`, `;` or tab: the one that occurs most in the first line, outside quotes. */
export function detectDelimiter(firstLine: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch] = (counts[ch] ?? 0) + 1;
  }
  const best = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
  return best && best[1] > 0 ? best[0] : ',';
}

/** Reads the start of a file to find its first line, decoded (BOM removed). */
async function firstLineOf(path: string, encoding: InputEncoding): Promise<string> {
  const stream: ReadStream = createReadStream(path, { start: encoding.bomBytes, end: 65535 });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const text = (await decodeBytes(Buffer.concat(chunks), encoding.encoding)).replace(/^\uFEFF/, '');
  const end = text.search(/\r?\n/);
  return end === -1 ? text : text.slice(0, end);
}

/**
 * Opens a CSV file with csv-parse's stream API, decoded as `encoding` says (streamed): header row,
 * delimiter detected, BOM stripped, quoted fields with newlines; records of the wrong width come
 * through (and are rejected per row). Each record is one spreadsheet row, as LibreOffice and Excel
 * number them: an empty line is a (blank, passed over) row, a quoted cell over several lines is one.
 */
export async function openCsv(path: string, encoding: InputEncoding = UTF8): Promise<InputTable> {
  const delimiter = detectDelimiter(await firstLineOf(path, encoding));
  const { parse, CsvError } = await import('csv-parse');
  const csvError = (error: unknown): never => {
    if (error instanceof CsvError) {
      const line = typeof error.lines === 'number' ? error.lines : undefined;
      throw new BatchInputError(
        `CSV input is malformed${line ? ` near line ${line}` : ''}: ${error.message.replace(/\s+/g, ' ').slice(0, 300)}`,
      );
    }
    throw error;
  };
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    max_record_size: MAX_RECORD_BYTES,
    skip_empty_lines: false,
    record_delimiter: ['\r\n', '\n', '\r'],
  });
  // Read 16 KiB at a time (not the default 64): a buffer's records (about a thousand short rows)
  // are made before the runner takes the first of them, and the fewer wait, the fewer of them
  // each young-generation collection copies.
  const source: Readable = createReadStream(path, { start: encoding.bomBytes, highWaterMark: READ_BYTES });
  // UTF-8 goes to csv-parse as bytes (it decodes them itself); other encodings through iconv-lite.
  const decoder = encoding.encoding === 'utf-8' ? undefined : await decodingStream(encoding.encoding);
  source.on('error', (error) => parser.destroy(error));
  decoder?.on('error', (error) => parser.destroy(error));
  (decoder ? source.pipe(decoder) : source).pipe(parser);
  const records = recordBatches(parser);
  const first = await records.next().catch(csvError);
  if (first.done) throw new BatchInputError('the CSV input is empty: a header row is required');
  const header = first.value[0] as string[];
  let pending: string[][] | undefined = first.value.length > 1 ? first.value.slice(1) : undefined;
  let line = 1;
  let closed = false;
  const close = () => {
    closed = true;
    parser.destroy();
    decoder?.destroy();
    source.destroy();
  };
  // Whole buffers of records at a time: a promise per buffer, not per record.
  const batches: AsyncIterator<TableRow[]> = {
    next: async () => {
      for (;;) {
        let got: string[][];
        if (pending) {
          got = pending;
          pending = undefined;
        } else {
          if (closed) return { done: true, value: undefined };
          const next = await records.next().catch(csvError);
          if (next.done) return { done: true, value: undefined };
          got = next.value;
        }
        const out: TableRow[] = [];
        for (const cells of got) {
          line += 1;
          if (!isBlank(cells)) out.push({ cells, line });
        }
        if (out.length > 0) return { done: false, value: out };
      }
    },
    return: async () => {
      close();
      return { done: true, value: undefined };
    },
  };
  return {
    header,
    batches: { [Symbol.asyncIterator]: () => batches },
    rows: { [Symbol.asyncIterator]: () => rowsOf(batches) },
    dialect: { delimiter, bom: encoding.bomBytes > 0 || encoding.encoding !== 'utf-8' },
  };
}

/**
 * The records of an object-mode stream, a buffer at a time: every record the stream holds is taken
 * with synchronous `read()` calls (csv-parse's documented way), then the next are awaited. An error
 * the stream finds while the caller holds a batch (csv-parse finds an open quote when the file
 * ends, which can be long before the next read) is kept in `stream.errored` and thrown by the next
 * read: the listener below is there from the first record to the last, so it never reaches the
 * process as an uncaught exception.
 */
async function* recordBatches(stream: Readable): AsyncGenerator<string[][]> {
  const keep = () => {};
  stream.on('error', keep);
  try {
    yield* recordsUntilEnd(stream);
  } finally {
    stream.off('error', keep);
  }
}

async function* recordsUntilEnd(stream: Readable): AsyncGenerator<string[][]> {
  for (;;) {
    const batch: string[][] = [];
    for (let record = stream.read(); record !== null; record = stream.read()) batch.push(record);
    if (batch.length > 0) {
      yield batch;
      continue;
    }
    if (stream.errored) throw stream.errored;
    if (stream.readableEnded || stream.destroyed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stream.off('readable', done);
        stream.off('end', done);
        stream.off('error', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('readable', done);
      stream.on('end', done);
      stream.on('error', done);
      stream.on('close', done);
    });
  }
}
