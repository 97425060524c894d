import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { readRawPage } from '../../src/core/bulk-read.js';
import { TimeoutError } from '../../src/core/errors/index.js';
import type { CallSpec } from '../../src/core/http.js';
import { RETRY_UNSENT_ONLY } from '../../src/core/retry.js';
import { createFetchTransport } from '../../src/core/transport/fetch.js';
import type { Transport } from '../../src/core/transport/types.js';
import { createDefaultTransport } from '../../src/node/transport/default.js';
import { createUndiciTransport } from '../../src/node/transport/undici.js';
import { failure } from '../helpers/client.js';
import { rawRequest } from '../helpers/server.js';
import { type SlowLink, startSlowLink, type ThrottleOptions } from '../helpers/throttle-relay.js';

// timeoutMs bounds each silence of an attempt, not the download, on every transport: a page of
// 100 audit events (about 72 KB) through a 32 KB/s link takes about 2.2 s, four times a 500 ms
// timeout, and arrives; the same link gone silent mid-body ends the attempt about 500 ms later.

const TIMEOUT_MS = 500;
const PAGE = '/platform/v1/events';

const transports: Array<{ name: string; make: () => Transport; bulk: boolean }> = [
  { name: 'undici', make: () => createUndiciTransport(), bulk: false },
  // The default transport reads a page into a reused buffer with node:http: the export's path.
  { name: 'node:http (bulk page)', make: () => createDefaultTransport(), bulk: true },
  { name: 'fetch', make: () => createFetchTransport(globalThis.fetch), bulk: false },
];

const links: SlowLink[] = [];
const clients: SvcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(links.splice(0).map((l) => l.close()));
});

async function link(options: ThrottleOptions): Promise<SlowLink> {
  const started = await startSlowLink(options);
  links.push(started);
  const added = await rawRequest(started.server.url, 'POST', '/__admin/audit-events', {
    body: { count: 100 },
  });
  expect(added.status).toBe(201);
  return started;
}

/**
 * A page of 100 events with `transport` through `link`. The transport first reads one small page
 * straight from the server with a generous timeout: loading undici and its parser on a busy
 * machine must not count as the slow link's silence. `warmed` is called between the two.
 */
async function page(transport: Transport, link: SlowLink, bulk: boolean, warmed = () => {}) {
  const client = (baseUrl: string, timeoutMs: number) => {
    const made = new SvcClient({ baseUrl, apiKey: 'ak_demo_project', maxRetries: 0, timeoutMs, transport });
    clients.push(made);
    return made;
  };
  await send(client(link.server.url, 30_000), spec(1), bulk);
  warmed();
  return send(client(link.url, TIMEOUT_MS), spec(100), bulk);
}

/** The page's text: read as JSON, or as a bulk read's bytes into a buffer it was handed. */
async function send(client: SvcClient, call: CallSpec, bulk: boolean): Promise<string> {
  if (!bulk) return (await client.http.call(call)).text;
  return new TextDecoder().decode(await readRawPage(client.http, call, (size) => new Uint8Array(size)));
}

function spec(pageSize: number): CallSpec {
  return {
    method: 'GET',
    path: PAGE,
    query: { pageSize },
    auth: { scheme: 'bearer', key: 'ak_demo_project' },
    retry: RETRY_UNSENT_ONLY,
  };
}

describe.each(transports)('$name: timeoutMs bounds each silence, not the download', ({ make, bulk }) => {
  it('a steady body four times longer than the timeout arrives whole', async () => {
    const slow = await link({ bytesPerSecond: 32_000 });
    let started = 0;
    const text = await page(make(), slow, bulk, () => {
      started = performance.now();
    });
    const tookMs = performance.now() - started;
    expect((JSON.parse(text) as { content: unknown[] }).content).toHaveLength(100);
    expect(tookMs).toBeGreaterThan(3 * TIMEOUT_MS);
  });

  it('a body that stops arriving ends the attempt about timeoutMs after its last byte', async () => {
    const slow = await link({ bytesPerSecond: 1_000_000, silentAfter: 20_000 });
    const error = await failure(page(make(), slow, bulk));
    const ended = performance.now();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'body', attempts: 1, timeoutMs: TIMEOUT_MS });
    expect(error.message).toBe(
      `No data for ${TIMEOUT_MS} ms while reading the response: GET ${PAGE} (1 attempt)`,
    );
    const afterSilence = ended - (slow.relay.silentSince as number);
    // undici's own body timer ticks in steps of up to half a second above 1 s; 500 ms is exact.
    expect(afterSilence).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(afterSilence).toBeLessThan(TIMEOUT_MS + 1500);
  });

  it('no answer at all ends the attempt after timeoutMs as "No answer"', async () => {
    const slow = await link({ bytesPerSecond: 1_000_000, silentAfter: 0 });
    const error = await failure(page(make(), slow, bulk));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'answer', attempts: 1 });
    expect(error.message).toBe(`No answer for ${TIMEOUT_MS} ms: GET ${PAGE} (1 attempt)`);
  });
});
