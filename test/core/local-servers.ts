import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

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

/**
 * A server for the whole test file that answers every request 200 with `body` as JSON; a test
 * sets `body` to what the next answers say.
 */
export function useJsonAnswerServer(): { url: () => string; body: Record<string, unknown> } {
  let server: LocalServer | undefined;
  const answers = {
    url: () => server?.url ?? '',
    body: {} as Record<string, unknown>,
  };
  beforeAll(async () => {
    server = await startServer((_req, res) => sendJson(res, 200, answers.body));
  });
  afterAll(() => server?.close());
  return answers;
}

/**
 * Servers and clients of one test, closed after each test: `serve(handler)` starts a server,
 * `keep(client)` closes the client before the servers.
 */
export function useLocalServers(): {
  serve: (handler: Parameters<typeof startServer>[0]) => Promise<LocalServer>;
  keep: <T extends { close(): Promise<void> }>(client: T) => T;
} {
  const servers: LocalServer[] = [];
  const clients: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return {
    serve: async (handler) => {
      const server = await startServer(handler);
      servers.push(server);
      return server;
    },
    keep: (client) => {
      clients.push(client);
      return client;
    },
  };
}
