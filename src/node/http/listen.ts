import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `server` on host:port (0 picks a free port); resolves with the bound port and base URL. */
export async function listenHttp(
  server: Server,
  host: string,
  port: number,
): Promise<{ port: number; baseUrl: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return { port: bound, baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${bound}` };
}

/** Stops accepting, drops open connections, resolves when closed. */
export function closeHttp(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
