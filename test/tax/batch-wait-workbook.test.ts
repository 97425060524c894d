import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { BatchInterruptedError } from '../../src/node/batch-file/errors.js';
import type { BatchFileEvent, BatchFileOptions } from '../../src/node/batch-file/options.js';
import { cellText } from '../../src/node/batch-file/xlsx/read.js';
import { runBatchFile } from '../../src/node/index.js';
import { batchSenderOf } from '../../src/tax/client.js';
import { validDe } from '../helpers/batch-data.js';
import { useReferenceServer } from '../helpers/server.js';
import { readTestWorkbook, type TestCell, writeTestWorkbook } from '../helpers/workbooks.js';

const server = useReferenceServer();
let dir: string;
let client: SvcClient;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-wait-xlsx-'));
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
  // Retries right away: the test is about deliveries that never succeed, not about waiting.
  server().admin.configureWebhookRetries({ retryDelaysMs: [0, 0] });
});
afterEach(() => client.close());
const file = (name: string) => join(dir, name);

/** Every webhook delivery fails, through the admin API as a test of a deployment would set it. */
async function failEveryDelivery(): Promise<void> {
  const response = await fetch(`${server().url}/__admin/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rate: 1, kinds: ['webhookStatus500', 'webhookReset', 'webhookLost'], seed: 11 }),
  });
  expect(response.status).toBe(200);
}

/**
 * A German workbook without a country column (the country comes from the VAT prefix) and a blank
 * sheet row after every 7th customer, so a row's `line` is not its row number plus one. Returns
 * the sheet line of each data row.
 */
async function writeCustomers(path: string, n: number): Promise<number[]> {
  const rows: Array<TestCell[] | undefined> = [['USt-IdNr', 'Firma', 'Ort']];
  const lines: number[] = [];
  for (let i = 1; i <= n; i++) {
    rows.push([`DE${validDe(i)}`, `Kunde ${i} GmbH & Söhne`, 'Köln']);
    lines.push(rows.length);
    if (i % 7 === 0) rows.push(undefined);
  }
  await writeTestWorkbook(path, { Kunden: rows });
  return lines;
}

/** The results sheet as text rows, header first, and its header. */
async function results(path: string): Promise<{ header: string[]; rows: string[][] }> {
  const sheet = (await readTestWorkbook(path)).worksheets[0] as ExcelJS.Worksheet;
  const all: string[][] = [];
  sheet.eachRow((row) => {
    const values = row.values as unknown[];
    all.push(Array.from({ length: sheet.columnCount }, (_, i) => cellText(values[i + 1])));
  });
  return { header: all[0] ?? [], rows: all.slice(1) };
}

function run(options: Partial<BatchFileOptions>, events: BatchFileEvent[] = []) {
  return runBatchFile(batchSenderOf(client.tax), {
    input: { path: file('kunden.xlsx') },
    output: { path: file('ergebnis.xlsx') },
    ...options,
    wait: { register: server().url, timeoutMs: 60_000, quietMs: 100, pendingBackoffMs: 1 },
    onProgress: (event) => events.push(event),
  });
}

/** Every customer once, in order, completed, with its sheet line and the cells it came with. */
async function expectEveryRowCompleted(lines: number[]) {
  const { header, rows } = await results(file('ergebnis.xlsx'));
  const at = (name: string) => header.indexOf(name);
  expect(header.slice(0, 6)).toEqual(['USt-IdNr', 'Firma', 'Ort', 'row', 'line', 'status']);
  expect(rows.map((r) => Number(r[at('row')]))).toEqual(lines.map((_, i) => i + 1));
  expect(rows.map((r) => Number(r[at('line')]))).toEqual(lines);
  expect(rows.map((r) => r[at('status')])).toEqual(lines.map(() => 'completed'));
  for (const r of rows) expect(r[at('validationResultId')]).toMatch(/^valres_/);
  expect(rows.map((r) => r[1])).toEqual(lines.map((_, i) => `Kunde ${i + 1} GmbH & Söhne`));
}

describe('a workbook run with --wait ends with every row answered, whatever happens to the webhooks', () => {
  it('.xlsx in, 100 % of deliveries failing, .xlsx out: every row completed with its line, each validated once', async () => {
    const lines = await writeCustomers(file('kunden.xlsx'), 60);
    await failEveryDelivery();
    const events: BatchFileEvent[] = [];
    const result = await run({}, events);
    expect(result.outstanding).toBe(0);
    expect(result.counts).toEqual({ 'completed:VALID': 60 });
    expect(events.some((e) => e.type === 'reconciling')).toBe(true);
    await expectEveryRowCompleted(lines);
    const stats = server().admin.stats();
    // Each row validated once: reconciliation replayed the same key with the same body (no 409).
    expect(stats.validationsProcessed).toBe(60);
    expect(stats.idempotentReplays).toBe(60);
  });

  it('interrupted while waiting, then --resume --wait: the rows file is finished and the workbook written', async () => {
    const lines = await writeCustomers(file('kunden.xlsx'), 40);
    await failEveryDelivery();
    const controller = new AbortController();
    const events = new Proxy([], {
      get: (target: BatchFileEvent[], key) =>
        key === 'push'
          ? (e: BatchFileEvent) => {
              if (e.type === 'waiting') setImmediate(() => controller.abort());
              return target.push(e);
            }
          : Reflect.get(target, key),
    });
    const error = await run({ signal: controller.signal }, events).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchInterruptedError);
    expect(existsSync(file('ergebnis.xlsx'))).toBe(false);
    expect(existsSync(file('ergebnis.xlsx.rows.ndjson'))).toBe(true);

    const resumed = await run({ resume: { continue: true } });
    expect(resumed.outstanding).toBe(0);
    await expectEveryRowCompleted(lines);
    expect(server().admin.stats().validationsProcessed).toBe(40);
  });
});
