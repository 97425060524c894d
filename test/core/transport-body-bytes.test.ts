import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchTransport } from '../../src/core/transport/fetch.js';
import type { Transport } from '../../src/core/transport/types.js';
import { createNodeHttpTransport } from '../../src/node/transport/node-http.js';
import { createUndiciTransport } from '../../src/node/transport/undici.js';

// `bodyBytes` (a body a caller encoded into a buffer of its own: svc audit ship's `_bulk` bodies)
// goes out byte for byte with its length, on each of the package's transports.

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ length: req.headers['content-length'] ?? null, hex: body.toString('hex') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('bodyBytes is sent byte for byte, with its length, by every transport', () => {
  const bytes = Buffer.concat([
    Buffer.from('{"create":{}}\n{"x":"é€"}\n', 'utf8'),
    Buffer.from([0xf0, 0x9f, 0x98, 0x80, 0x0a]),
  ]);
  const transports: Array<[string, () => Transport]> = [
    ['undici', () => createUndiciTransport()],
    ['node:http', () => createNodeHttpTransport()],
    ['fetch', () => createFetchTransport()],
  ];
  for (const [name, make] of transports)
    it(name, async () => {
      const transport = make();
      try {
        const answer = await transport.request({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/x-ndjson' },
          // A view into a larger buffer, as the ship's shared buffer hands it over.
          bodyBytes: Buffer.concat([bytes, Buffer.from('not sent')]).subarray(0, bytes.length),
          signal: AbortSignal.timeout(10_000),
        });
        const echoed = JSON.parse(answer.body) as { length: string | null; hex: string };
        expect(echoed.hex).toBe(bytes.toString('hex'));
        if (echoed.length !== null) expect(Number(echoed.length)).toBe(bytes.length);
      } finally {
        await transport.close?.();
      }
    });
});
