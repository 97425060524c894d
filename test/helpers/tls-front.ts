import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import { ROOT } from './build.js';

const TLS = join(ROOT, 'test', 'fixtures', 'tls');

/** The test certificates (test/fixtures/tls): the test CA, an unrelated CA, and the server's pair. */
export const TEST_TLS = {
  caFile: join(TLS, 'ca.pem'),
  otherCaFile: join(TLS, 'other-ca.pem'),
  ca: readFileSync(join(TLS, 'ca.pem'), 'utf8'),
  otherCa: readFileSync(join(TLS, 'other-ca.pem'), 'utf8'),
  cert: readFileSync(join(TLS, 'server.pem'), 'utf8'),
  key: readFileSync(join(TLS, 'server.key'), 'utf8'),
};

/** An HTTPS front of a plain HTTP server. */
export interface TlsFront {
  /** `https://localhost:PORT` (the name the certificate holds). */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * An HTTPS server on 127.0.0.1 with the test certificate (CN localhost, signed by the test CA)
 * that passes each request on to `upstream` (the reference server), with the Host header the
 * upstream expects (its DNS-rebinding guard takes its own host and port only).
 */
export async function startTlsFront(upstream: string, host = '127.0.0.1'): Promise<TlsFront> {
  const target = new URL(upstream);
  const server: Server = createServer({ cert: TEST_TLS.cert, key: TEST_TLS.key }, (req, res) => {
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `https://localhost:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
