import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer, type TLSSocket } from 'node:tls';

/** The test CA's files (test/fixtures/tls, written by scripts/test-ca.sh). */
export const TLS_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'tls');
/** The CA that signed `server.pem` (for `--ca-file`, `AWS_CA_BUNDLE`, `NODE_EXTRA_CA_CERTS`). */
export const TEST_CA = join(TLS_FIXTURES, 'ca.pem');
/** An unrelated CA: trusting it must not make the server trusted. */
export const OTHER_CA = join(TLS_FIXTURES, 'other-ca.pem');

/** An HTTPS front of a loopback http server. */
export interface TlsFront {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1:0 with `server.pem` (for localhost, 127.0.0.1 and ::1, signed by the test
 * CA) and pipes each decrypted connection to `127.0.0.1:targetPort` as it is: the http server
 * behind it answers as if asked directly.
 */
export async function startTlsFront(targetPort: number): Promise<TlsFront> {
  const sockets = new Set<Socket>();
  const server = createServer(
    {
      cert: readFileSync(join(TLS_FIXTURES, 'server.pem')),
      key: readFileSync(join(TLS_FIXTURES, 'server.key')),
    },
    (secure: TLSSocket) => {
      const plain = connect(targetPort, '127.0.0.1');
      sockets.add(secure).add(plain);
      secure.pipe(plain).pipe(secure);
      const end = () => {
        secure.destroy();
        plain.destroy();
      };
      secure.on('error', end).on('close', end);
      plain.on('error', end).on('close', end);
    },
  );
  // A client that refuses the certificate drops the handshake: not the front's failure.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
