import { describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import type { Transport, TransportRequest } from '../../src/core/transport/types.js';
import { BatchStoppedError } from '../../src/tax/batch/batch-stopped-error.js';
import { rowIdempotencyKey } from '../../src/tax/batch/keys.js';
import { type BatchRowResult, rowReject } from '../../src/tax/batch/types.js';
import { validDe } from '../helpers/batch-data.js';

/** A transport that answers batch requests itself: 422 (without naming items) when a chunk holds a "bad" value. */
function fakeBatchTransport(
  options: { bad?: Set<string>; status?: number; delayFor?: (chunk: number) => Promise<void> } = {},
) {
  const chunks: string[][] = [];
  const keys: string[] = [];
  const transport: Transport = {
    async request(req: TransportRequest) {
      const body = JSON.parse(req.body ?? '{}') as {
        items: Array<{ rawValue: string; idempotencyKey: string }>;
      };
      const values = body.items.map((i) => i.rawValue);
      keys.push(...body.items.map((i) => i.idempotencyKey));
      const index = chunks.push(values) - 1;
      await options.delayFor?.(index);
      if (options.status) return { status: options.status, headers: {}, body: '{"detail":"stop"}' };
      if (values.some((v) => options.bad?.has(v)))
        return { status: 422, headers: {}, body: '{"detail":"invalid batch"}' };
      const items = values.map((_, i) => ({
        index: i,
        validationRequestId: `req-${values[i]}`,
        status: 'PENDING',
      }));
      return { status: 202, headers: {}, body: JSON.stringify({ items }) };
    },
  };
  return { transport, chunks, keys };
}

const row = (i: number) => ({ countryCode: 'DE', rawValue: String(100000000 + i) });

describe('results come back one per row, in input order', () => {
  it('keeps input order with several chunks in flight that finish out of order', async () => {
    // Even chunks answer only after the next odd one, so completions arrive out of order.
    const gates: Array<() => void> = [];
    const { transport } = fakeBatchTransport({
      delayFor: (chunk) =>
        chunk % 2 === 0
          ? new Promise<void>((resolve) => {
              gates[chunk] = resolve;
            })
          : Promise.resolve().then(() => gates[chunk - 1]?.()),
    });
    const client = new SvcClient({ baseUrl: 'http://fake.invalid', apiKey: 'ak_test', transport });
    const rows = Array.from({ length: 95 }, (_, i) => row(i));
    const results: BatchRowResult[] = [];
    for await (const r of client.tax.runBatch(rows, { chunkSize: 10, concurrency: 4, runId: 'r' }))
      results.push(r);
    expect(results.map((r) => r.row)).toEqual(Array.from({ length: 95 }, (_, i) => i + 1));
    expect(results.every((r) => r.status === 'submitted')).toBe(true);
  });

  it('reads no further than the window allows (bounded memory)', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { transport } = fakeBatchTransport({ delayFor: () => gate });
    const client = new SvcClient({ baseUrl: 'http://fake.invalid', apiKey: 'ak_test', transport });
    let read = 0;
    function* rows() {
      for (let i = 0; i < 10_000; i++) {
        read += 1;
        yield row(i);
      }
    }
    const iterator = client.tax.runBatch(rows(), { chunkSize: 10, concurrency: 3, runId: 'r' });
    const first = iterator.next();
    // Let the runner read as far as it will while every request is held.
    for (let i = 0; i < 100; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(read).toBeLessThanOrEqual(31);
    release();
    await first;
    await iterator.return(undefined);
  });
});

describe('a 422 for the whole chunk is bisected until the offending rows are isolated', () => {
  it('rejects only the bad rows and sends the rest', async () => {
    const bad = new Set([String(100000000 + 3), String(100000000 + 17)]);
    const { transport, chunks } = fakeBatchTransport({ bad });
    const client = new SvcClient({ baseUrl: 'http://fake.invalid', apiKey: 'ak_test', transport });
    const results: BatchRowResult[] = [];
    for await (const r of client.tax.runBatch(
      Array.from({ length: 20 }, (_, i) => row(i)),
      { chunkSize: 20, runId: 'r' },
    )) {
      results.push(r);
    }
    expect(results.filter((r) => r.status === 'rejected').map((r) => r.row)).toEqual([4, 18]);
    expect(results.filter((r) => r.status === 'submitted')).toHaveLength(18);
    expect(results[3]).toMatchObject({ code: 'SERVER_422', message: 'invalid batch' });
    // Every good row was accepted exactly once.
    const accepted = new Map<string, number>();
    for (const chunk of chunks) {
      if (chunk.some((v) => bad.has(v))) continue;
      for (const v of chunk) accepted.set(v, (accepted.get(v) ?? 0) + 1);
    }
    expect([...accepted.values()].every((n) => n === 1)).toBe(true);
    expect(accepted.size).toBe(18);
  });
});

describe('rows failing local checks are rejected and never sent', () => {
  it('schema failures, strict pre-check failures and pre-rejected rows', async () => {
    const { transport, chunks } = fakeBatchTransport();
    const client = new SvcClient({ baseUrl: 'http://fake.invalid', apiKey: 'ak_test', transport });
    const input = [
      { countryCode: 'DE', rawValue: validDe(1) },
      { countryCode: 'DE', rawValue: 'x'.repeat(30) },
      { countryCode: 'DE', rawValue: '136695977' },
      rowReject('CSV', 'broken'),
    ];
    const results: BatchRowResult[] = [];
    for await (const r of client.tax.runBatch(input, { precheck: 'strict', runId: 'r' })) results.push(r);
    expect(results.map((r) => [r.status, r.code])).toEqual([
      ['submitted', undefined],
      ['rejected', 'SCHEMA'],
      ['rejected', 'CHECKSUM'],
      ['rejected', 'CSV'],
    ]);
    // Sent in canonical form (prefixed), as the pre-check gives it.
    expect(chunks.flat()).toEqual([`DE${validDe(1)}`]);
  });
});

describe('idempotency keys are deterministic per run id, row number and content', () => {
  it('same inputs give the same key; any change gives another', async () => {
    const a = await rowIdempotencyKey('run', 1, row(1));
    expect(await rowIdempotencyKey('run', 1, { rawValue: row(1).rawValue, countryCode: 'DE' })).toBe(a);
    expect(await rowIdempotencyKey('run', 2, row(1))).not.toBe(a);
    expect(await rowIdempotencyKey('other', 1, row(1))).not.toBe(a);
    expect(await rowIdempotencyKey('run', 1, row(2))).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('keys stay those of earlier versions, so a run started before an upgrade resumes without duplicates', async () => {
    // Computed by the version before the per-row key code was rewritten for speed; the same after
    // node:crypto's hash gave way to Web Crypto's digest.
    const nested = {
      countryCode: 'DE',
      rawValue: 'DE136695976',
      companyName: 'Müller "GmbH"',
      address: { city: 'Köln', street: undefined },
      customerMetadata: { b: '1', a: '2' },
    };
    expect(await rowIdempotencyKey('run-1', 7, nested)).toBe('a7fe4368-777b-8b46-5c2f-f2b2b58da603');
    expect(await rowIdempotencyKey('run-1', 8, { rawValue: '1', countryCode: 'AT' })).toBe(
      'bc520374-69ed-433c-c11d-be94d9a183cf',
    );
  });

  it('the keys a run sends are those of the rows as they came in (a chunk keyed together)', async () => {
    const { transport, keys: sent } = fakeBatchTransport();
    const client = new SvcClient({ baseUrl: 'http://fake.invalid', apiKey: 'ak_test', transport });
    const rows = [row(1), row(2), { ...row(3), idempotencyKey: 'own-key-3' }];
    const results = [];
    for await (const r of client.tax.runBatch(rows, { runId: 'run-1' })) results.push(r);
    const expected = [
      await rowIdempotencyKey('run-1', 1, row(1)),
      await rowIdempotencyKey('run-1', 2, row(2)),
      'own-key-3',
    ];
    expect(sent).toEqual(expected);
    expect(results.map((r) => r.idempotencyKey)).toEqual(expected);
  });
});

describe('402 and key problems stop the run', () => {
  it('throws BatchStoppedError naming the first unreported row', async () => {
    const { transport } = fakeBatchTransport({ status: 402 });
    const client = new SvcClient({ baseUrl: 'http://fake.invalid', apiKey: 'ak_test', transport });
    const results: BatchRowResult[] = [];
    const error = await (async () => {
      for await (const r of client.tax.runBatch([row(1), row(2)], { runId: 'r' })) results.push(r);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchStoppedError);
    expect((error as BatchStoppedError).nextRow).toBe(1);
    expect(results).toHaveLength(0);
  });
});
