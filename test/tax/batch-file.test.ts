import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import {
  BatchFileStoppedError,
  BatchInputError,
  BatchInterruptedError,
} from '../../src/node/batch-file/errors.js';
import type { BatchFileEvent } from '../../src/node/batch-file/options.js';
import { runBatchFile } from '../../src/node/index.js';
import {
  registerWebhookEndpoint,
  WebhookRegistrationError,
} from '../../src/tax/webhooks/register-endpoint.js';
import { makeCsv } from '../helpers/batch-data.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let dir: string;
let client: SvcClient;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-batch-file-'));
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
});
afterEach(() => client.close());
const file = (name: string) => join(dir, name);
const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n');
const processed = () => server().admin.stats().validationsProcessed;

describe('runBatchFile writes results, rejects and a state file, file to file', () => {
  it('NDJSON results, CSV rejects, counts, and progress for every row', async () => {
    const { text, kinds } = makeCsv(200);
    writeFileSync(file('in.csv'), text);
    const events: BatchFileEvent[] = [];
    const result = await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson'), rejects: file('rejects.csv') },
      onProgress: (e) => events.push(e),
    });
    const structural = kinds.filter((k) => k === 'structural').length;
    expect(result).toMatchObject({ rowsDone: 200, resumed: false, statePath: file('out.ndjson.state.json') });
    expect(result.counts.rejected).toBe(structural);
    expect(lines(file('out.ndjson'))).toHaveLength(200);
    expect(lines(file('rejects.csv'))).toHaveLength(structural + 1);
    expect(events.filter((e) => e.type === 'row')).toHaveLength(200);
    const state = JSON.parse(readFileSync(file('out.ndjson.state.json'), 'utf8')) as Record<string, unknown>;
    expect(state).toMatchObject({ rowsDone: 200, outBytes: readFileSync(file('out.ndjson')).length });
  });

  it('CSV results when the output name ends in .csv; a stream output in the format asked for', async () => {
    writeFileSync(file('in.csv'), makeCsv(10).text);
    await runBatchFile(client.tax, { input: { path: file('in.csv') }, output: { path: file('out.csv') } });
    expect(lines(file('out.csv'))[0]).toBe(
      'countryCode,vatId,metadata.customerId,companyName,row,line,status,outcome,provider,registryCompanyName,companyNameMatch,addressMatch,validationResultId,checkedAt,validationRequestId,code,message',
    );
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: stream, format: 'csv' },
    });
    expect(Buffer.concat(chunks).toString('utf8')).toBe(readFileSync(file('out.csv'), 'utf8'));
  });

  it('a stream input is read like a file (copied aside, hashed for the run id)', async () => {
    const { text } = makeCsv(30);
    writeFileSync(file('in.csv'), text);
    await runBatchFile(client.tax, { input: { path: file('in.csv') }, output: { path: file('a.ndjson') } });
    const before = processed();
    const result = await runBatchFile(client.tax, {
      input: { path: Readable.from([text]) },
      output: { path: file('b.ndjson') },
    });
    expect(result.rowsDone).toBe(30);
    // Same bytes, same run id, same keys: the server replays every row.
    expect(processed()).toBe(before);
    expect(readFileSync(file('b.ndjson'), 'utf8')).toBe(readFileSync(file('a.ndjson'), 'utf8'));
  });

  it('bad input is a BatchInputError and nothing is sent', async () => {
    writeFileSync(file('in.csv'), 'name,city\nx,y\n');
    const error = await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson') },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchInputError);
    expect(error).toMatchObject({ code: 'config' });
    expect(processed()).toBe(0);
  });
});

describe('an interrupted run resumes where its state file says, processing no row twice', () => {
  it('the signal stops it with BatchInterruptedError; resume equals an uninterrupted run', async () => {
    const { text, kinds } = makeCsv(1200);
    writeFileSync(file('in.csv'), text);
    const controller = new AbortController();
    const options = { input: { path: file('in.csv') }, send: { chunkSize: 50, concurrency: 2 } };
    const error = await runBatchFile(client.tax, {
      ...options,
      output: { path: file('out.ndjson') },
      signal: controller.signal,
      onProgress: (e) => {
        if (e.type === 'row' && e.rowsDone >= 300) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchInterruptedError);
    const { rowsDone, statePath } = error as BatchInterruptedError;
    expect(statePath).toBe(file('out.ndjson.state.json'));
    expect(rowsDone).toBeGreaterThanOrEqual(300);
    expect(rowsDone).toBeLessThan(1200);
    expect(lines(file('out.ndjson'))).toHaveLength(rowsDone);

    const resumed = await runBatchFile(client.tax, {
      ...options,
      output: { path: file('out.ndjson') },
      resume: { continue: true },
    });
    expect(resumed).toMatchObject({ rowsDone: 1200, resumed: true });
    expect(processed()).toBe(kinds.filter((k) => k !== 'structural').length);
    await runBatchFile(client.tax, { ...options, output: { path: file('clean.ndjson') } });
    expect(readFileSync(file('out.ndjson'), 'utf8')).toBe(readFileSync(file('clean.ndjson'), 'utf8'));
  });

  it('resume refuses a state file of another input', async () => {
    writeFileSync(file('in.csv'), makeCsv(20).text);
    await runBatchFile(client.tax, { input: { path: file('in.csv') }, output: { path: file('out.ndjson') } });
    writeFileSync(file('in.csv'), makeCsv(21).text);
    await expect(
      runBatchFile(client.tax, {
        input: { path: file('in.csv') },
        output: { path: file('out.ndjson') },
        resume: { continue: true },
      }),
    ).rejects.toThrow(/another input/);
  });

  it('a plan limit stops it with BatchFileStoppedError; the state records why', async () => {
    writeFileSync(file('in.csv'), makeCsv(60).text);
    const basic = new SvcClient({ baseUrl: server().url, apiKey: 'ak_basic_project' });
    const error = await runBatchFile(basic.tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson') },
      send: { chunkSize: 10, concurrency: 1 },
    }).catch((e: unknown) => e);
    await basic.close();
    expect(error).toBeInstanceOf(BatchFileStoppedError);
    const { rowsDone, statePath } = error as BatchFileStoppedError;
    expect(statePath).toBe(file('out.ndjson.state.json'));
    const state = JSON.parse(readFileSync(file('out.ndjson.state.json'), 'utf8')) as {
      rowsDone: number;
      stoppedBy?: string;
    };
    expect(state.stoppedBy).toMatch(/402/);
    expect(state.rowsDone).toBe(rowsDone);
    expect(lines(file('out.ndjson'))).toHaveLength(rowsDone);
  });
});

describe('wait joins webhook outcomes to rows; registerWebhookEndpoint registers a listener', () => {
  it('every submitted row gets its outcome; the results file is rewritten with them', async () => {
    writeFileSync(file('in.csv'), makeCsv(60).text);
    const result = await runBatchFile(client.tax, {
      input: { path: file('in.csv') },
      output: { path: file('out.ndjson') },
      wait: { register: server().url, timeoutMs: 20_000 },
    });
    expect(result.outstanding).toBe(0);
    const rows = lines(file('out.ndjson')).map((l) => JSON.parse(l) as { status: string });
    expect(rows).toHaveLength(60);
    expect(rows.every((r) => r.status === 'completed' || r.status === 'rejected')).toBe(true);
    // The endpoint it registered is removed when the run ends.
    expect(server().admin.webhookEndpoints()).toEqual([]);
  });

  it('a server that cannot be reached or refuses is a WebhookRegistrationError (code config)', async () => {
    const unreachable = await registerWebhookEndpoint('http://127.0.0.1:1', 'http://127.0.0.1:2/x').catch(
      (e: unknown) => e,
    );
    expect(unreachable).toBeInstanceOf(WebhookRegistrationError);
    expect(unreachable).toMatchObject({
      code: 'config',
      message: 'cannot reach http://127.0.0.1:1 to register the listener',
    });
    const refused = await registerWebhookEndpoint(server().url, 'not a url').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WebhookRegistrationError);
    expect((refused as Error).message).toMatch(/failed with HTTP 4\d\d/);
  });
});
