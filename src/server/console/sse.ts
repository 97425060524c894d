import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BusMessage, EventBus } from '../events/bus.js';
import { HttpProblem } from '../problem.js';

/** Console streams open at once; one more answers 503. */
export const MAX_STREAMS = 16;

/**
 * Bytes of live events a stream may have waiting for a slow reader, beyond what it was sent on
 * connecting (the history, at most 1 MiB), before it is dropped (the browser reconnects and
 * catches up from the history), so no reader can make the server's memory grow.
 */
export const MAX_BUFFERED_BYTES = 512 * 1024;

/** A comment line every so often keeps proxies and the browser from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/** One SSE frame; JSON never contains a raw line break, so `data:` is one line. */
function frame(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function lastEventId(req: IncomingMessage): number | undefined {
  const raw = req.headers['last-event-id'];
  const id = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
  return id;
}

/**
 * Serves `/__console/events`: `meta` and `settings` first, then the history (all of it, or what
 * follows `Last-Event-ID` when nothing was dropped since; else `reset` first), then live events.
 */
export function openEventStream(
  bus: EventBus,
  req: IncomingMessage,
  res: ServerResponse,
  meta: unknown,
  options: { maxBufferedBytes?: number } = {},
): void {
  if (bus.subscribers >= MAX_STREAMS) {
    throw new HttpProblem(503, `At most ${MAX_STREAMS} console streams at once; close a console tab`);
  }
  let limit = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    unsubscribe();
    clearInterval(heartbeat);
    res.destroy();
  };
  const write = (text: string) => {
    if (!open) return;
    if (res.writableLength > limit) close();
    else res.write(text);
  };
  const unsubscribe = bus.subscribe((message: BusMessage) => {
    if (message.kind === 'event') write(frame(message.envelope.type, message.envelope, message.envelope.id));
    else if (message.kind === 'settings') write(frame('settings', message.settings));
    else write(frame('reset', {}));
  });
  const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  res.on('close', close);

  // The start is bounded by the history size; only what follows must keep pace with the reader.
  const start = ['retry: 1000\n\n', frame('meta', meta), frame('settings', bus.settings())];
  const { events, complete } = bus.since(lastEventId(req));
  if (!complete) start.push(frame('reset', {}));
  for (const envelope of events) start.push(frame(envelope.type, envelope, envelope.id));
  const text = start.join('');
  // The start may still be waiting when the first live event comes: it does not count against
  // the reader, only what follows does.
  limit += Buffer.byteLength(text);
  res.write(text);
}
