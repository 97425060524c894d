import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenForWebhooks } from '../../src/node/webhooks/listen.js';

/** Opens a TCP connection and resolves once it is established. */
function open(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

const closed = (socket: Socket) => new Promise((resolve) => socket.once('close', resolve));

const EVENT = JSON.stringify({
  eventType: 'taxvalidation.validation.completed',
  occurredAt: '2026-11-23T08:00:00Z',
  taxValidatorId: 'tv_demo',
  validationResultId: 'valres_1',
  outcome: 'VALID',
  provider: 'VIES',
  providerStatus: 'SUCCESS',
});

describe('the webhook listener bounds its open connections (maxConnections)', () => {
  it('full of idle connections: the oldest idle one is closed and the new one delivers', async () => {
    const events: string[] = [];
    const listener = await listenForWebhooks({
      maxConnections: 2,
      onEvent: (event) => {
        events.push(event.eventType);
      },
    });
    const url = new URL(listener.url);
    const sockets: Socket[] = [];
    try {
      // A local process holding idle connections (never sending a request).
      for (let i = 0; i < 2; i++) sockets.push(await open(url));
      const [first, second] = sockets as [Socket, Socket];
      const firstClosed = closed(first);
      const res = await fetch(listener.url, { method: 'POST', body: EVENT });
      expect(res.status).toBe(200);
      await firstClosed;
      expect(first.destroyed).toBe(true);
      expect(second.destroyed).toBe(false);
      expect(events).toEqual(['taxvalidation.validation.completed']);
    } finally {
      for (const socket of sockets) socket.destroy();
      await listener.close();
    }
  });

  it('every connection busy with a request: a new connection is closed on arrival', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const listener = await listenForWebhooks({
      maxConnections: 2,
      onEvent: async () => {
        started += 1;
        await held;
      },
    });
    try {
      const inFlight = [0, 1].map(() => fetch(listener.url, { method: 'POST', body: EVENT }));
      while (started < 2) await new Promise((resolve) => setImmediate(resolve));
      const third = await open(new URL(listener.url));
      await closed(third);
      expect(third.destroyed).toBe(true);
      release();
      expect((await Promise.all(inFlight)).map((r) => r.status)).toEqual([200, 200]);
    } finally {
      release();
      await listener.close();
    }
  });
});
