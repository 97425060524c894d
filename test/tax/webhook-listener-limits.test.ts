import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenForWebhooks } from '../../src/tax/webhook-listener.js';

/** Opens a TCP connection and resolves once it is established. */
function open(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('the webhook listener bounds its open connections (maxConnections)', () => {
  it('past the limit a new connection is closed on arrival; the ones within it stay open', async () => {
    const listener = await listenForWebhooks({ maxConnections: 2, onEvent: () => {} });
    const url = new URL(listener.url);
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) sockets.push(await open(url));
      const [first, second, third] = sockets as [Socket, Socket, Socket];
      await new Promise((resolve) => third.once('close', resolve));
      expect(third.destroyed).toBe(true);
      expect(first.destroyed || second.destroyed).toBe(false);
    } finally {
      for (const socket of sockets) socket.destroy();
      await listener.close();
    }
  });
});
