import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createReferenceServer, type ReferenceServer } from '../../src/server/index.js';

/** How a {@link startThrottleRelay} link behaves. */
export interface ThrottleOptions {
  /** Bytes per second from the server to the client, shared by all connections (one link). */
  bytesPerSecond: number;
  /**
   * After this many bytes towards the client (all connections together) the link goes silent:
   * nothing more is forwarded, every connection stays open. Default: never.
   */
  silentAfter?: number;
}

/** A TCP relay on 127.0.0.1:0 in front of a server: a slow (or silent) network link. */
export interface ThrottleRelay {
  /** `http://127.0.0.1:PORT`: use as the base URL. */
  url: string;
  /** Bytes forwarded towards the client so far. */
  readonly forwarded: number;
  /** `performance.now()` when the link went silent (`silentAfter` reached), else undefined. */
  readonly silentSince: number | undefined;
  /** `performance.now()` when the last client connection closed, else undefined. */
  readonly lastClientClose: number | undefined;
  /** The relay's port (on 127.0.0.1). */
  port: number;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

/** Pump period, ms: each tick sends what the rate allows for the time since the last one. */
const TICK_MS = 10;
/** Bytes read ahead from the server per connection before reading pauses. */
const HIGH_WATER = 64 * 1024;

interface Pair {
  client: Socket;
  upstream: Socket;
  queue: Buffer[];
  queued: number;
  upstreamEnded: boolean;
}

/**
 * Starts a relay that forwards the client's bytes to `target()` (called per connection) as they
 * come and the server's
 * bytes back at `bytesPerSecond` (a token bucket, refilled from the real time that passed, so
 * timer jitter does not change the average rate). The rate is the link's: concurrent
 * connections share it, taken in turn.
 */
export async function startThrottleRelay(
  target: () => string,
  options: ThrottleOptions,
): Promise<ThrottleRelay> {
  const pairs = new Set<Pair>();
  const state = {
    forwarded: 0,
    silentSince: undefined as number | undefined,
    lastClientClose: undefined as number | undefined,
  };
  let allowance = 0;
  let last = performance.now();

  const pump = () => {
    const now = performance.now();
    // At most two ticks' worth carried over: an idle link does not save up a burst.
    allowance = Math.min(
      allowance + (options.bytesPerSecond * (now - last)) / 1000,
      (options.bytesPerSecond * TICK_MS * 2) / 1000,
    );
    last = now;
    for (const pair of pairs) {
      if (state.silentSince !== undefined) break;
      while (pair.queue.length > 0 && allowance >= 1) {
        let budget = Math.floor(allowance);
        if (options.silentAfter !== undefined)
          budget = Math.min(budget, options.silentAfter - state.forwarded);
        if (budget <= 0) break;
        const head = pair.queue[0] as Buffer;
        const piece = head.length <= budget ? head : head.subarray(0, budget);
        if (piece === head) pair.queue.shift();
        else pair.queue[0] = head.subarray(budget);
        pair.queued -= piece.length;
        allowance -= piece.length;
        state.forwarded += piece.length;
        pair.client.write(piece);
      }
      if (options.silentAfter !== undefined && state.forwarded >= options.silentAfter) {
        state.silentSince = performance.now();
        break;
      }
      if (pair.queued < HIGH_WATER / 2) pair.upstream.resume();
      if (pair.queue.length === 0 && pair.upstreamEnded) pair.client.end();
    }
  };
  const timer = setInterval(pump, TICK_MS);

  const server = createServer((client) => {
    const { hostname, port } = new URL(target());
    const upstream = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    const pair: Pair = { client, upstream, queue: [], queued: 0, upstreamEnded: false };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      pair.queue.push(chunk);
      pair.queued += chunk.length;
      if (pair.queued >= HIGH_WATER) upstream.pause();
    });
    upstream.on('end', () => {
      pair.upstreamEnded = true;
    });
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => {
      state.lastClientClose = performance.now();
      drop();
    });
    upstream.on('close', () => {
      // What the server sent is still delivered at the link's rate; only then the client's side ends.
      if (pair.queue.length === 0) client.end();
    });
    client.on('error', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${own}`,
    port: own,
    get forwarded() {
      return state.forwarded;
    },
    get silentSince() {
      return state.silentSince;
    },
    get lastClientClose() {
      return state.lastClientClose;
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(timer);
        for (const pair of pairs) {
          pair.client.destroy();
          pair.upstream.destroy();
        }
        pairs.clear();
        server.close(() => resolve());
      }),
  };
}

/** A reference server behind a {@link startThrottleRelay} link. */
export interface SlowLink {
  /** The base URL to use: the relay's. */
  url: string;
  relay: ThrottleRelay;
  server: ReferenceServer;
  close(): Promise<void>;
}

/**
 * A reference server reached through a throttling relay. The server's DNS-rebinding guard
 * answers only a `Host` of its own port, and a TCP relay does not rewrite headers: so the relay
 * listens on 127.0.0.1:0 and the server is bound to 127.0.0.2 on the relay's port number
 * (all of 127.0.0.0/8 is loopback on Linux), which makes `Host: 127.0.0.1:PORT` its own.
 */
export async function startSlowLink(options: ThrottleOptions): Promise<SlowLink> {
  let server: ReferenceServer | undefined;
  const relay = await startThrottleRelay(() => (server as ReferenceServer).url, options);
  server = await createReferenceServer({ host: '127.0.0.2', port: relay.port });
  const started = server;
  return {
    url: relay.url,
    relay,
    server: started,
    close: async () => {
      await relay.close();
      await started.close();
    },
  };
}
