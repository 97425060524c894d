import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from '../../src/server/console/sse.js';
import { EventBus } from '../../src/server/events/bus.js';
import type { HttpProblem } from '../../src/server/problem.js';
import { requestEvent } from '../helpers/console-events.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** An HTTP server whose every request is an event stream of `bus`. */
async function streamServer(bus: EventBus, maxBufferedBytes?: number): Promise<string> {
  server = createServer((req, res) => {
    try {
      openEventStream(bus, req, res, { hello: true }, { maxBufferedBytes });
    } catch (error) {
      res.writeHead((error as HttpProblem).status ?? 500).end();
    }
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Reads a stream until `done(text)` says enough; returns the text. */
async function readUntil(url: string, headers: Record<string, string>, done: (text: string) => boolean) {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
  }
  abort.abort();
  return { status: res.status, type: res.headers.get('content-type'), text };
}

describe('console events: meta, settings, then the history, then live events', () => {
  it('a new stream gets everything kept, newest last, as SSE frames with ids', async () => {
    const bus = new EventBus(() => 0);
    bus.publish('request', requestEvent('/one'));
    bus.publish('request', requestEvent('/two'));
    const url = await streamServer(bus);
    const { status, type, text } = await readUntil(url, {}, (t) => t.includes('/two'));
    expect(status).toBe(200);
    expect(type).toBe('text/event-stream; charset=utf-8');
    expect(text.indexOf('event: meta')).toBeLessThan(text.indexOf('event: settings'));
    expect(text).toMatch(/id: 1\nevent: request\ndata: \{.*"\/one"/);
    expect(text.indexOf('/one')).toBeLessThan(text.indexOf('/two'));
  });

  it('a reconnect with Last-Event-ID gets only what it missed; one that missed dropped events gets reset first', async () => {
    const bus = new EventBus(() => 0, 3);
    for (const path of ['/a', '/b', '/c']) bus.publish('request', requestEvent(path));
    const url = await streamServer(bus);
    const resumed = await readUntil(url, { 'last-event-id': '2' }, (t) => t.includes('/c'));
    expect(resumed.text).not.toContain('/b');
    expect(resumed.text).not.toContain('event: reset');
    for (const path of ['/d', '/e']) bus.publish('request', requestEvent(path));
    const behind = await readUntil(url, { 'last-event-id': '1' }, (t) => t.includes('/e'));
    expect(behind.text).toContain('event: reset');
    expect(behind.text.indexOf('event: reset')).toBeLessThan(behind.text.indexOf('/c'));
  });
});

describe('console events: a slow reader cannot grow the server memory', () => {
  it('a client that never reads is dropped once its buffer passes the limit', async () => {
    const bus = new EventBus(() => 0, 10);
    const url = new URL(await streamServer(bus, 64 * 1024));
    const socket = connect(Number(url.port), url.hostname);
    socket.write(`GET /events HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
    socket.pause();
    while (bus.subscribers === 0) await new Promise((resolve) => setImmediate(resolve));
    const big = `/${'x'.repeat(2000)}`;
    let published = 0;
    // The kernel buffers some megabytes first; past them the server's own buffer passes 64 KiB.
    while (bus.subscribers > 0 && published < 100_000) {
      for (let i = 0; i < 100; i++) bus.publish('request', requestEvent(big));
      published += 100;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(bus.subscribers).toBe(0);
    expect(published).toBeLessThan(100_000);
    socket.destroy();
  });

  it('at most 16 streams at once; the next one is refused', async () => {
    const bus = new EventBus(() => 0);
    const url = await streamServer(bus);
    const aborts = Array.from({ length: 16 }, () => new AbortController());
    const open = await Promise.all(aborts.map((a) => fetch(url, { signal: a.signal })));
    expect(open.map((r) => r.status)).toEqual(Array(16).fill(200));
    expect((await fetch(url)).status).toBe(503);
    for (const a of aborts) a.abort();
  });
});
