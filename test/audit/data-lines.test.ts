import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BLOCK_BYTES,
  countDataLines,
  dataLines,
  LineBlocks,
  LineSplitter,
  MAX_EVENT_LINE_BYTES,
} from '../../src/node/audit-archive/data-lines.js';
import { FolderStore } from '../../src/node/audit-store/folder-store.js';
import { ArchiveFileError } from '../../src/node/audit-store/regular-files.js';
import { firstBytes } from '../../src/node/audit-store/s3-range.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-data-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = new FolderStore(dir);

/** Writes `bytes` as data file `name` and gives it as its manifest would list it. */
function listed(name: string, bytes: Buffer) {
  writeFileSync(join(dir, name), bytes);
  return { name, bytes: bytes.length };
}

/** What readline (the reader before issue 40) made of the same bytes: its non-empty lines. */
async function readlineLines(bytes: Buffer): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: Readable.from([bytes]), crlfDelay: Infinity }))
    if (line !== '') lines.push(line);
  return lines;
}

const collect = async (source: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const line of source) out.push(line);
  return out;
};

describe('lines are split from bytes as readline split them: LF, CR and CRLF, empty lines not counted', () => {
  const text = `{"a":1}\n\n{"b":"${'x'.repeat(200_000)}"}\r\n{"c":3}\r{"d":"é"}\n\r\n{"e":5}`;
  it('plain and gzipped, a line across read chunks (200 KB, chunks of 64 KiB)', async () => {
    const bytes = Buffer.from(text);
    const expected = await readlineLines(bytes);
    expect(expected).toHaveLength(5);
    for (const [name, data] of [
      ['audit-000001.ndjson', bytes],
      ['audit-000002.ndjson.gz', gzipSync(bytes)],
    ] as const) {
      const file = listed(name, data);
      expect(await countDataLines(store, file)).toBe(5);
      expect(await collect(dataLines(store, file))).toEqual(expected);
    }
  });
});

describe('any bytes cut into any chunks give the same lines, in blocks of about 64 KiB', () => {
  const piece = fc.oneof(
    fc.constantFrom('\n', '\r', '\r\n', '\n\n'),
    fc.string({ minLength: 1, maxLength: 40 }).map((t) => t.replace(/[\r\n]/g, '')),
    fc.integer({ min: 1, max: 100_000 }).map((n) => 'x'.repeat(n)),
  );
  it('LineSplitter and LineBlocks against a split at /\\r\\n|\\r|\\n/', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (pieces, cuts) => {
          const bytes = Buffer.from(pieces.join(''));
          const expected = bytes
            .toString()
            .split(/\r\n|\r|\n/)
            .filter((line) => line !== '');
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points, bytes.length]
            .slice(1)
            .map((end, i, ends) => bytes.subarray(i === 0 ? 0 : (ends[i - 1] as number), end));
          const lines: string[] = [];
          const splitter = new LineSplitter(true, (line) => lines.push(line.toString()));
          for (const chunk of chunks) splitter.push(chunk);
          expect(splitter.end()).toBe(expected.length);
          expect(lines).toEqual(expected);
          // Blocks hold whole lines, and no more than one block's worth unless one line is longer.
          const blocks = new LineBlocks();
          for (const chunk of chunks)
            for (const { bytes: block, bounds } of blocks.push(chunk)) {
              const longest = Math.max(
                0,
                ...bounds.map((b, i) => (i % 2 ? b - (bounds[i - 1] as number) : 0)),
              );
              expect(block.length).toBeLessThanOrEqual(BLOCK_BYTES + longest + 2);
              expect([10, 13]).toContain(block[block.length - 1]);
            }
        },
      ),
      { numRuns: 300, seed: 44 },
    );
  });
});

describe('a line over 32 MiB, a file longer than listed or gzip that does not end whole is an ArchiveFileError', () => {
  it('one line of 32 MiB + 1 byte is refused; of 32 MiB it counts', async () => {
    const ok = listed('audit-000003.ndjson.gz', gzipSync(Buffer.alloc(MAX_EVENT_LINE_BYTES, 0x61)));
    expect(await countDataLines(store, ok)).toBe(1);
    const over = listed('audit-000004.ndjson.gz', gzipSync(Buffer.alloc(MAX_EVENT_LINE_BYTES + 1, 0x61)));
    await expect(countDataLines(store, over)).rejects.toThrow(
      new ArchiveFileError(`holds a line longer than ${MAX_EVENT_LINE_BYTES} bytes (no event is)`),
    );
  });

  it('bytes past the listed size are read no further than one', async () => {
    const file = listed('audit-000005.ndjson', Buffer.from('{"a":1}\n{"b":2}\n'));
    await expect(countDataLines(store, { ...file, bytes: file.bytes - 1 })).rejects.toThrow(
      'longer than its manifest says',
    );
    const gz = listed('audit-000006.ndjson.gz', gzipSync(Buffer.from('{"a":1}\n')));
    await expect(collect(dataLines(store, { ...gz, bytes: gz.bytes - 5 }))).rejects.toThrow(ArchiveFileError);
  });

  it('truncated gzip', async () => {
    const whole = gzipSync(Buffer.from('{"a":1}\n'.repeat(100)));
    const file = listed('audit-000007.ndjson.gz', whole.subarray(0, whole.length - 10));
    await expect(countDataLines(store, file)).rejects.toThrow('not gzip data that ends whole');
  });
});

describe('a bucket body is cut at the range end even when the store ignores Range', () => {
  it('firstBytes ends after maxBytes and destroys the body', async () => {
    const body = Readable.from([Buffer.alloc(10, 1), Buffer.alloc(10, 2), Buffer.alloc(10, 3)]);
    const chunks: Buffer[] = [];
    for await (const chunk of firstBytes(body, 15)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(Buffer.concat([Buffer.alloc(10, 1), Buffer.alloc(5, 2)]));
    expect(body.destroyed).toBe(true);
  });
});
