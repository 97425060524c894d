import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditArchive } from '../../src/node/index.js';
import { ensureBuilt } from '../helpers/built-cli.js';
import { lines, runBin } from '../helpers/run-bin.js';
import { bucketMachine } from './helpers.js';

// #41 item 4 for bucket archives: a store request may stay silent for `timeoutMs` (`--timeout`)
// and no longer, whether the store never answers or announces a body and stops sending it; a
// slow but steady answer is not cut.

/** How a fake store treats each connection. */
type Behaviour = (socket: Socket) => void;

let store: Server | undefined;
/** The fake store's open connections, destroyed after each test (a silent store never closes them). */
const sockets = new Set<Socket>();
let root: string;

beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'svc-s3-silence-'));
});
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => (store ? store.close(() => resolve()) : resolve()));
  store = undefined;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A store on loopback that reads each request and then does what `behaviour` says; its endpoint. */
async function fakeStore(behaviour: Behaviour): Promise<string> {
  store = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => behaviour(socket));
  });
  store.listen(0, '127.0.0.1');
  await once(store, 'listening');
  const { port } = store.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

/** Never answers. */
const silent: Behaviour = () => {};

/** Announces a 4 KiB body, sends 10 bytes of it, then nothing. */
const stalls: Behaviour = (socket) => {
  socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 4096\r\n\r\n<?xml vers');
};

const EMPTY_LISTING =
  '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>quiet-bucket</Name><Prefix>audit/</Prefix><KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated></ListBucketResult>';

/** Every answer an empty listing, its body sent 16 bytes every 40 ms: slow, never silent for 300 ms. */
const trickles: Behaviour = (socket) => {
  const body = Buffer.from(EMPTY_LISTING);
  socket.write(
    `HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  let at = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write(body.subarray(at, at + 16));
    at += 16;
    if (at >= body.length) {
      clearInterval(timer);
      socket.end();
    }
  }, 40);
};

const s3 = (endpoint: string, timeoutMs: number) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test-secret' },
  maxAttempts: 2,
  timeoutMs,
});

describe('a bucket request may stay silent for timeoutMs, no longer (library)', () => {
  it('a store that never answers: one line naming the store and the silence, after the tries', async () => {
    const endpoint = await fakeStore(silent);
    const started = performance.now();
    const error = await verifyAuditArchive('s3://quiet-bucket/audit', { s3: s3(endpoint, 300) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(
      new RegExp(`the store at ${new URL(endpoint).host} sent nothing for 300 ms \\(2 tries\\)`),
    );
    expect(message).toContain('--timeout');
    expect(message).not.toContain('\n');
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('a store that announces a body and stops sending it is cut the same way', async () => {
    const endpoint = await fakeStore(stalls);
    const error = await verifyAuditArchive('s3://quiet-bucket/audit', { s3: s3(endpoint, 300) }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/sent nothing for 300 ms/);
  });

  it('a slow but steady answer (longer than the bound in all) is read whole', async () => {
    const endpoint = await fakeStore(trickles);
    // The empty listing takes about 16 x 40 ms: twice the bound, never silent for it.
    const started = performance.now();
    const result = await verifyAuditArchive('s3://quiet-bucket/audit', { s3: s3(endpoint, 300) });
    // Read to its end: the listing was empty, so the store holds no archive (and said so in time).
    expect(result.problems.map((p) => p.kind)).toEqual(['missing-manifest']);
    expect(performance.now() - started).toBeGreaterThan(300);
  });
});

describe('--timeout bounds the silence of a bucket archive (CLI)', () => {
  it('svc --timeout 300 audit verify against a store that never answers: exit 1, one line', async () => {
    const endpoint = await fakeStore(silent);
    const env = bucketMachine(
      root,
      {
        AWS_ENDPOINT_URL_S3: endpoint,
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test-secret',
        AWS_REGION: 'us-east-1',
      },
      'http://127.0.0.1:9',
    );
    const run = await runBin(['--timeout', '300', 'audit', 'verify', 's3://quiet-bucket/audit'], { env });
    expect(run.code, run.stderr).toBe(1);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(
      /sent nothing for 300 ms \(\d+ tries\): a slow store or link may need a larger --timeout/,
    );
  }, 60_000);
});
