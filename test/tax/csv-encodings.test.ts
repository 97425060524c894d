import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { BatchInputError } from '../../src/node/batch-file/errors.js';
import { detectEncoding, encodingName, inspectInput } from '../../src/node/batch-file/input/encoding.js';
import type { BatchFileEvent } from '../../src/node/batch-file/options.js';
import { runBatchFile } from '../../src/node/index.js';
import { validDe } from '../helpers/batch-data.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let dir: string;
let client: SvcClient;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-csv-enc-'));
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
});
afterEach(() => client.close());
const file = (name: string) => join(dir, name);

/** Names with letters outside ASCII that Windows-1252 and UTF-16 both hold. */
const NAMES = ['Müller GmbH', 'Société Générale', 'Øresund ApS', 'Café Œuvre – “Zoë”'];

function csvText(delimiter: string): string {
  const lines = [['countryCode', 'vatId', 'companyName'].join(delimiter)];
  NAMES.forEach((name, i) => {
    lines.push(['DE', validDe((i + 1) * 7919), name].join(delimiter));
  });
  return `${lines.join('\r\n')}\r\n`;
}

/** Windows-1252 bytes of a text (every character used here is in the code page). */
function windows1252(text: string): Buffer {
  return iconv.encode(text, 'windows-1252');
}

function utf16be(text: string): Buffer {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1] as number, le[i] as number];
  return le;
}

/** Runs a file inline (strategy single) and returns the company names the server stored, in order. */
async function namesStored(bytes: Buffer, options: { encoding?: string } = {}) {
  writeFileSync(file('in.csv'), bytes);
  const events: BatchFileEvent[] = [];
  const result = await runBatchFile(client.tax, {
    input: { path: file('in.csv'), encoding: options.encoding },
    output: { path: file('out.ndjson') },
    send: { strategy: 'single' },
    onProgress: (e) => events.push(e),
  });
  expect(result.counts['completed:VALID']).toBe(NAMES.length);
  const rows = readFileSync(file('out.ndjson'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { validationResultId: string; input: Record<string, string> });
  const stored = await Promise.all(
    rows.map(async (r) => (await client.tax.getResult(r.validationResultId)).input?.companyName),
  );
  return { stored, rows, events };
}

describe('the input encoding comes from its BOM, else UTF-8, else Windows-1252 with a warning', () => {
  it('a Windows-1252 file (Excel CSV, semicolons) arrives intact, with an encoding warning', async () => {
    const { stored, rows, events } = await namesStored(windows1252(csvText(';')));
    expect(stored).toEqual(NAMES);
    expect(rows.map((r) => r.input.companyName)).toEqual(NAMES);
    const warning = events.find((e) => e.type === 'encoding');
    expect(warning).toMatchObject({ type: 'encoding', encoding: 'windows-1252' });
  });

  it('a UTF-16LE file with a BOM (Excel Unicode text, tabs) arrives intact, no warning', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csvText('\t'), 'utf16le')]);
    const { stored, events } = await namesStored(bytes);
    expect(stored).toEqual(NAMES);
    expect(events.some((e) => e.type === 'encoding')).toBe(false);
  });

  it('a UTF-16BE file with a BOM arrives intact', async () => {
    const bytes = Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(csvText(','))]);
    expect((await namesStored(bytes)).stored).toEqual(NAMES);
  });

  it('a UTF-8 file with a BOM arrives intact, the BOM not part of the first header', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csvText(','))]);
    const { stored, events } = await namesStored(bytes);
    expect(stored).toEqual(NAMES);
    expect(events.some((e) => e.type === 'columns')).toBe(false);
  });

  it('a chunk boundary inside a character does not break it (a large UTF-8 file)', async () => {
    const header = 'countryCode,vatId,companyName\n';
    const row = `DE,${validDe(7919)},${'Ø'.repeat(40_000)}\n`;
    writeFileSync(file('big.csv'), header + row.repeat(3));
    expect(await detectEncoding(file('big.csv'))).toEqual({
      encoding: 'utf-8',
      bomBytes: 0,
      source: 'default',
    });
  });
});

describe('encoding: a label names the encoding; an unknown label is a BatchInputError', () => {
  it('labels are WHATWG labels', async () => {
    expect(await encodingName('latin1')).toBe('windows-1252');
    expect(await encodingName('UTF-16LE')).toBe('utf-16le');
    await expect(encodingName('klingon')).rejects.toThrow(BatchInputError);
  });

  it('an unknown label stops the run before anything is sent; latin1 reads a Windows-1252 file', async () => {
    writeFileSync(file('in.csv'), windows1252(csvText(',')));
    await expect(
      runBatchFile(client.tax, {
        input: { path: file('in.csv'), encoding: 'nope' },
        output: { path: file('out.ndjson') },
      }),
    ).rejects.toThrow(BatchInputError);
    expect(server().admin.stats().validationsProcessed).toBe(0);
    const { stored } = await namesStored(windows1252(csvText(',')), { encoding: 'latin1' });
    expect(stored).toEqual(NAMES);
  });

  it('the run id of a UTF-8 file is still the hash of its bytes', async () => {
    const bytes = Buffer.from(csvText(','));
    const { createHash } = await import('node:crypto');
    writeFileSync(file('in.csv'), bytes);
    const state = file('state.json');
    await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson') },
      resume: { state },
    });
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { runId: string };
    expect(saved.runId).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});

describe('the progress total is the number of CSV records, counted in the same pass as the encoding check', () => {
  it('quoted newlines, blank lines, CRLF and a last line without newline: as csv-parse counts them', async () => {
    const { parse } = await import('csv-parse/sync');
    const lf = `a,b,c\n1,"two\nlines",3\n\n4,"""q""",6\n\n7,8,"end\nx"`;
    for (const text of [lf, lf.replace(/\n/g, '\r\n')])
      for (const [name, bytes] of [
        ['utf8', Buffer.from(text)],
        ['utf16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
        ['1252', iconv.encode(text.replace('q', 'Œ'), 'windows-1252')],
      ] as const) {
        writeFileSync(file(`${name}.csv`), bytes);
        const records = parse(text, { skip_empty_lines: true }) as string[][];
        expect(records).toHaveLength(4);
        expect((await inspectInput(file(`${name}.csv`))).rows).toBe(3);
      }
  });

  it('each row event of a run carries the total', async () => {
    writeFileSync(file('in.csv'), csvText(';'));
    const totals = new Set<number | undefined>();
    await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      onProgress: (e) => {
        if (e.type === 'row') totals.add(e.rowsTotal);
      },
    });
    expect([...totals]).toEqual([NAMES.length]);
  });
});
