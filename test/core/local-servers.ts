import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a tiny test server saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** A throwaway node:http server on 127.0.0.1:0. */
export interface LocalServer {
  url: string;
  port: number;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts a server answering with `handler`; every request is recorded in `seen`. */
export async function startServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<LocalServer> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A server that reads requests and never answers; `received` resolves on the first request. */
export async function startHangingServer(): Promise<LocalServer & { received: Promise<void> }> {
  let signal: () => void = () => {};
  const received = new Promise<void>((resolve) => {
    signal = resolve;
  });
  const server = await startServer(() => signal());
  return { ...server, received };
}

/** A port that was open a moment ago and is closed now: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = await startServer((_req, res) => res.end());
  await server.close();
  return server.port;
}

/** Sends a JSON body with a status. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}
