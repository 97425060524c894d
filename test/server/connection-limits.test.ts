import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_LIMITS } from '../../src/server/app.js';
import {
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '../../src/server/index.js';

// A client that trickles a body, or holds many sockets, cannot keep the reference server's
// connections (and descriptors) for itself: it has the webhook listener's limits.

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent once it closed `socket`. */
function closedWith(socket: Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  return new Promise((resolve) =>
    socket.once('close', () => resolve(Buffer.concat(chunks).toString('latin1'))),
  );
}

async function withServer(
  limits: ReferenceServerOptions['limits'],
  run: (server: ReferenceServer) => Promise<void>,
): Promise<void> {
  const server = await createReferenceServer({ limits });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

const postHead = (port: number, extra: string[] = []) =>
  [
    'POST /taxvalidation/v1/validations HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Authorization: Bearer ak_demo_project',
    'Content-Type: application/json',
    'Transfer-Encoding: chunked',
    ...extra,
    '',
    '',
  ].join('\r\n');

describe('the reference server cuts a request that trickles (request and header timeouts, 30 s by default)', () => {
  it('the defaults are 30 s for headers and for a whole request, 1024 connections, 5 s keep-alive', () => {
    expect(DEFAULT_SERVER_LIMITS).toEqual({
      maxConnections: 1024,
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5000,
    });
  });

  it('a chunked body sending one byte at a time is answered 408 and closed at the request timeout', async () => {
    await withServer({ requestTimeoutMs: 400, headersTimeoutMs: 400 }, async (server) => {
      const socket = await open(server.port);
      const answer = closedWith(socket);
      socket.write(postHead(server.port));
      // One byte per chunk, forever, until the server closes the connection.
      const drip = setInterval(() => socket.writable && socket.write('1\r\n{\r\n'), 20);
      const started = performance.now();
      try {
        const text = await answer;
        const elapsed = performance.now() - started;
        expect(text).toMatch(/^HTTP\/1\.1 408/);
        expect(elapsed).toBeLessThan(5000);
      } finally {
        clearInterval(drip);
      }
    });
  });

  it('headers that never end are cut at the headers timeout', async () => {
    await withServer({ requestTimeoutMs: 10_000, headersTimeoutMs: 300 }, async (server) => {
      const socket = await open(server.port);
      const answer = closedWith(socket);
      socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
      const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 20);
      try {
        expect(await answer).toMatch(/^HTTP\/1\.1 408/);
      } finally {
        clearInterval(drip);
      }
    });
  });
});

describe('the reference server bounds its open connections (1024 by default)', () => {
  it('full of idle connections: the oldest idle one is closed and a new client is answered', async () => {
    await withServer({ maxConnections: 3 }, async (server) => {
      const idle = [await open(server.port), await open(server.port), await open(server.port)];
      const firstClosed = closedWith(idle[0] as Socket);
      try {
        const res = await fetch(`${server.url}/taxvalidation/v1/validations/none`, {
          headers: { authorization: 'Bearer ak_demo_project' },
        });
        expect(res.status).toBeGreaterThanOrEqual(200);
        await res.arrayBuffer();
        await firstClosed;
        expect(idle[0]?.destroyed).toBe(true);
        expect(idle[1]?.destroyed).toBe(false);
      } finally {
        for (const socket of idle) socket.destroy();
      }
    });
  });

  it('every connection busy with a request: a new connection is closed on arrival', async () => {
    await withServer({ maxConnections: 2 }, async (server) => {
      // Two requests whose bodies never come: both connections are busy. The server's
      // `100 Continue` says it has read each request's headers (the request has begun).
      const busy = [await open(server.port), await open(server.port)];
      await Promise.all(
        busy.map(
          (socket) =>
            new Promise<void>((resolve) => {
              socket.on('error', () => {});
              socket.once('data', () => resolve());
              socket.write(postHead(server.port, ['Expect: 100-continue']));
            }),
        ),
      );
      try {
        const third = await open(server.port);
        const text = await closedWith(third);
        expect(text).toBe('');
        expect(busy.every((socket) => !socket.destroyed)).toBe(true);
      } finally {
        for (const socket of busy) socket.destroy();
      }
    });
  });
});
