import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { BatchInterruptedError } from '../../src/node/batch-file/errors.js';
import type { BatchFileEvent, BatchFileOptions } from '../../src/node/batch-file/options.js';
import type { BatchFileClient } from '../../src/node/index.js';
import { runBatchFile } from '../../src/node/index.js';
import { batchSenderOf } from '../../src/tax/client.js';
import { makeCsv } from '../helpers/batch-data.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let dir: string;
let client: SvcClient;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-reconcile-'));
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
  // Retries right away: the test is about what happens when deliveries fail, not about waiting.
  server().admin.configureWebhookRetries({ retryDelaysMs: [0, 0] });
});
afterEach(() => client.close());
const file = (name: string) => join(dir, name);
type Row = { row: number; status: string; outcome?: string; code?: string; validationResultId?: string };
const rowsOf = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);

/** Rows that can be sent (the generator makes every 33rd row structurally invalid). */
const sendable = (n: number) => makeCsv(n).kinds.filter((k) => k !== 'structural').length;

function run(
  options: Partial<BatchFileOptions>,
  events: BatchFileEvent[] = [],
  tax: BatchFileClient = batchSenderOf(client.tax),
) {
  return runBatchFile(tax, {
    input: { path: file('in.csv') },
    output: { path: file('out.ndjson') },
    ...options,
    wait: {
      register: server().url,
      timeoutMs: 60_000,
      quietMs: 100,
      pendingBackoffMs: 1,
      ...(options.wait as object),
    },
    onProgress: (event) => events.push(event),
  });
}

/** Every row once, in order, each with a final status; no row left waiting. */
function expectEveryRowAnswered(rows: Row[], n: number) {
  expect(rows.map((r) => r.row)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  for (const r of rows) expect(['completed', 'rejected']).toContain(r.status);
  for (const r of rows.filter((x) => x.status === 'completed'))
    expect(r.validationResultId).toMatch(/^valres_/);
}

describe('every row ends answered whatever happens to its webhook', () => {
  it('2,000 rows, 20 % of delivery attempts failing (500, reset, lost, duplicate): every row once, validated once', async () => {
    writeFileSync(file('in.csv'), makeCsv(2000).text);
    server().admin.setFaults({
      rate: 0.2,
      kinds: ['webhookStatus500', 'webhookReset', 'webhookLost', 'webhookDuplicate'],
      seed: 7,
    });
    const result = await run({});
    const rows = rowsOf(file('out.ndjson'));
    expectEveryRowAnswered(rows, 2000);
    expect(result.outstanding).toBe(0);
    const stats = server().admin.stats();
    expect(stats.validationsProcessed).toBe(sendable(2000));
    expect(stats.faultsInjected.webhookLost).toBeGreaterThan(0);
    // Counted once per row, whatever arrived twice.
    expect(Object.values(result.counts).reduce((a, b) => a + b, 0)).toBe(2000);
    expect(result.counts.submitted ?? 0).toBe(0);
  }, 180_000);

  it('100 % of events lost: reconciliation answers every row from the stored results, nothing validated twice', async () => {
    writeFileSync(file('in.csv'), makeCsv(300).text);
    server().admin.setFaults({ rate: 1, kinds: ['webhookLost'], seed: 1 });
    const events: BatchFileEvent[] = [];
    const result = await run({}, events);
    expectEveryRowAnswered(rowsOf(file('out.ndjson')), 300);
    const stats = server().admin.stats();
    expect(stats.validationsProcessed).toBe(sendable(300));
    expect(stats.idempotentReplays).toBe(sendable(300));
    expect(stats.webhooksSent).toBe(0);
    expect(result.counts['completed:VALID']).toBeGreaterThan(0);
  });
});

describe('reconciliation starts after a quiet period, not only at the end of the wait', () => {
  it('completions stop: the missing rows are asked about long before timeoutMs', async () => {
    writeFileSync(file('in.csv'), makeCsv(200).text);
    server().admin.setFaults({ rate: 0.5, kinds: ['webhookLost'], seed: 3 });
    const events: BatchFileEvent[] = [];
    // A wait of an hour: the run can only end this soon through the quiet period.
    await run({ wait: { timeoutMs: 3_600_000 } }, events);
    const reconciling = events.filter((e) => e.type === 'reconciling');
    expect(reconciling.map((e) => e.type === 'reconciling' && e.reason)).toEqual(['quiet']);
    expectEveryRowAnswered(rowsOf(file('out.ndjson')), 200);
  });
});

describe('rows still PENDING when the wait is up are pending; a resume finishes them', () => {
  it('a service that keeps answering PENDING: rows end pending, exit data says so, --resume completes them', async () => {
    writeFileSync(file('in.csv'), makeCsv(50).text);
    server().admin.setFaults({ rate: 1, kinds: ['webhookLost'], seed: 1 });
    // A client whose reconciliation requests all come back PENDING (the service is still working).
    const stuck: BatchFileClient = {
      _submitBatch: (items, o) => batchSenderOf(client.tax)._submitBatch(items, o),
      getResult: (id) => client.tax.getResult(id),
      validate: async (params) => ({
        kind: 'pending',
        pending: { validationRequestId: 'x', status: 'PENDING' },
        replay: true,
        idempotencyKey: String(params.idempotencyKey),
        requestId: undefined,
      }),
    };
    const events: BatchFileEvent[] = [];
    const first = await run({ wait: { timeoutMs: 300, quietMs: 60_000 } }, events, stuck);
    expect(first.outstanding).toBe(sendable(50));
    expect(first.counts.pending).toBe(sendable(50));
    expect(events.some((e) => e.type === 'reconciling' && e.reason === 'timeout')).toBe(true);
    const pending = rowsOf(file('out.ndjson')).filter((r) => r.status === 'pending');
    expect(pending).toHaveLength(sendable(50));

    const events2: BatchFileEvent[] = [];
    const resumed = await run({ resume: { continue: true } }, events2);
    expect(resumed.outstanding).toBe(0);
    expect(events2.some((e) => e.type === 'reconciling' && e.reason === 'resumed')).toBe(true);
    expectEveryRowAnswered(rowsOf(file('out.ndjson')), 50);
    expect(server().admin.stats().validationsProcessed).toBe(sendable(50));
  });
});

describe('an interrupt while waiting keeps what arrived and resumes without validating twice', () => {
  it('abort during the wait: BatchInterruptedError, then resume with wait answers every row', async () => {
    writeFileSync(file('in.csv'), makeCsv(400).text);
    server().admin.setFaults({ rate: 0.3, kinds: ['webhookLost'], seed: 5 });
    const controller = new AbortController();
    const error = await run(
      { signal: controller.signal, wait: { quietMs: 60_000 } },
      // Interrupt once the waiting begins (some rows have outcomes, some never will).
      new Proxy([], {
        get: (target: BatchFileEvent[], key) =>
          key === 'push'
            ? (e: BatchFileEvent) => {
                if (e.type === 'waiting') setImmediate(() => controller.abort());
                return target.push(e);
              }
            : Reflect.get(target, key),
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchInterruptedError);
    const afterFirst = rowsOf(file('out.ndjson'));
    expect(afterFirst).toHaveLength(400);
    expect(afterFirst.some((r) => r.status === 'submitted')).toBe(true);
    expect(afterFirst.some((r) => r.status === 'completed')).toBe(true);
    const validated = server().admin.stats().validationsProcessed;

    const resumed = await run({ resume: { continue: true } });
    expect(resumed.outstanding).toBe(0);
    expectEveryRowAnswered(rowsOf(file('out.ndjson')), 400);
    expect(server().admin.stats().validationsProcessed).toBe(validated);
  });
});

describe('a stream output with wait is written once, merged, in row order', () => {
  it('CSV to a stream: header once, every row with its outcome', async () => {
    writeFileSync(file('in.csv'), makeCsv(120).text);
    server().admin.setFaults({ rate: 0.2, kinds: ['webhookLost'], seed: 2 });
    const { PassThrough } = await import('node:stream');
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    await run({ output: { path: stream, format: 'csv' } });
    const text = Buffer.concat(chunks).toString('utf8').trim().split('\n');
    expect(text).toHaveLength(121);
    expect(text[0]).toMatch(/^countryCode,vatId,/);
    expect(text.slice(1).filter((l) => /,submitted,|,pending,/.test(l))).toEqual([]);
  });
});
