import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchInputError } from '../../src/node/batch-file/errors.js';
import { mapColumns, metadataKey, recordToRequest } from '../../src/node/batch-file/input/columns.js';
import { detectDelimiter, openCsv } from '../../src/node/batch-file/input/csv.js';
import { isRowReject } from '../../src/tax/batch/types.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const dir = mkdtempSync(join(tmpdir(), 'svc-csv-prop-'));
let n = 0;
function tempFile(content: string | Uint8Array): string {
  n += 1;
  const path = join(dir, `in-${n}.csv`);
  writeFileSync(path, content);
  return path;
}

/** Reads a CSV fully as the batch command does: each record becomes a request or a reject. */
async function ingest(path: string): Promise<{ rows: number } | { usage: string }> {
  try {
    const table = await openCsv(path);
    const columns = mapColumns(table.header);
    let rows = 0;
    for await (const { cells } of table.rows) {
      const request = recordToRequest(cells, columns);
      expect(isRowReject(request) || typeof request === 'object').toBe(true);
      rows += 1;
    }
    return { rows };
  } catch (error) {
    if (error instanceof BatchInputError) return { usage: error.message };
    throw error;
  }
}

describe('CSV ingestion never fails in an unclear way', () => {
  it('random bytes after a valid header: per-row results or one usage error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        const header = Buffer.from('countryCode,rawValue\n');
        const result = await ingest(tempFile(Buffer.concat([header, Buffer.from(bytes)])));
        if ('usage' in result) expect(result.usage.split('\n')).toHaveLength(1);
      }),
      { numRuns: 150, seed: 4242 },
    );
  });

  it('random text with quotes and delimiters: per-row results or one usage error', async () => {
    const cell = fc.stringMatching(/^[A-Za-z0-9 ";,\t\r\n]{0,12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 30 }),
        fc.constantFrom(',', ';', '\t'),
        async (rows, d) => {
          const text = `countryCode${d}rawValue\n${rows.map((r) => r.join(d)).join('\n')}`;
          const result = await ingest(tempFile(text));
          if ('usage' in result) expect(result.usage).toMatch(/CSV input is malformed|header/);
        },
      ),
      { numRuns: 150, seed: 777 },
    );
  });

  it('an unbalanced quote is one clear error naming the line', async () => {
    const result = await ingest(tempFile('countryCode,rawValue\nDE,"136695976\nDE,1\n'));
    expect(result).toEqual({ usage: expect.stringMatching(/CSV input is malformed/) });
  });

  it('read a buffer at a time (the batch path): every row before a broken one, then one clear error', async () => {
    const good = Array.from({ length: 20_000 }, () => 'DE,136695976\n').join('');
    const table = await openCsv(tempFile(`countryCode,rawValue\n${good}DE,"1\nDE,2\n`));
    let rows = 0;
    let batches = 0;
    const error = await (async () => {
      for await (const batch of table.batches) {
        batches += 1;
        rows += batch.length;
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchInputError);
    expect((error as Error).message).toMatch(/CSV input is malformed near line/);
    expect(rows).toBe(20_000);
    expect(batches).toBeGreaterThan(1);
  });

  it('an open quote found while the caller holds a batch is thrown by the next read, not at the process', async () => {
    const table = await openCsv(tempFile('countryCode,rawValue\nDE,"1\n'));
    // The file is a few bytes: a few turns of the event loop let csv-parse reach its end (and its
    // error) while nobody is reading.
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    const error = await (async () => {
      for await (const _ of table.batches);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchInputError);
    expect((error as Error).message).toMatch(/CSV input is malformed near line 2/);
  });

  it('a 10 MB field is one clear error with bounded memory', async () => {
    const before = process.memoryUsage().rss;
    const result = await ingest(tempFile(`countryCode,rawValue\nDE,"${'9'.repeat(10 * 1024 * 1024)}"\n`));
    expect(result).toEqual({ usage: expect.stringMatching(/malformed/) });
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
  });

  it('invalid UTF-8 is read (replacement characters) and judged per row', async () => {
    const bytes = Buffer.concat([
      Buffer.from('countryCode,rawValue\nDE,'),
      Buffer.from([0xff, 0xfe, 0x41]),
      Buffer.from('\nDE,136695976\n'),
    ]);
    expect(await ingest(tempFile(bytes))).toEqual({ rows: 2 });
  });
});

describe('CSV header rules', () => {
  it('detects the delimiter from the first line, ignoring quoted ones', () => {
    expect(detectDelimiter('a;b;c')).toBe(';');
    expect(detectDelimiter('a\tb')).toBe('\t');
    expect(detectDelimiter('"x;y;z",b')).toBe(',');
    expect(detectDelimiter('single')).toBe(',');
  });

  it('maps names case-insensitively with aliases; metadata keys become a-z0-9_', () => {
    const map = mapColumns(['Country', 'VAT_ID', 'metadata.customerId', 'Postal Code', 'notes']);
    expect(map.targets).toEqual([
      'countryCode',
      'rawValue',
      'metadata.customer_id',
      'address.postalCode',
      undefined,
    ]);
    expect(map.ignored).toEqual(['notes']);
    expect(metadataKey('Customer Id')).toBe('customer_id');
    expect(() => mapColumns(['country', 'country'])).toThrow(/'country' and 'country' both mean countryCode/);
  });

  it('empty cells are absent fields', () => {
    const map = mapColumns(['countryCode', 'rawValue', 'companyName', 'city']);
    expect(recordToRequest(['de', '136695976', '', ''], map)).toEqual({
      countryCode: 'DE',
      rawValue: '136695976',
    });
  });
});

describe('the batch command turns malformed CSV into one line and exit 2', () => {
  it('unbalanced quotes', async () => {
    const run = await runSvc(['batch', tempFile('countryCode,rawValue\nDE,"1\n')], {
      env: { SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\bat \w+ \(/);
  });

  it('a missing file', async () => {
    const run = await runSvc(['batch', join(dir, 'does-not-exist.csv')], {
      env: { SVC_BASE_URL: server().url, SVC_API_KEY: 'ak_demo_project' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `svc: cannot read ${join(dir, 'does-not-exist.csv')}: no such file or directory (ENOENT)\n`,
    );
  });
});
