import type { IncomingMessage } from 'node:http';
import { draw, listenStandIn, readBody, type StandInTls, sendBody } from './standin-http.js';

/** Options of {@link startHecStandIn}. A rate is a share from 0 to 1 and defaults to 0. */
export interface HecStandInOptions {
  /** The HEC token (`Authorization: Splunk <token>`). Default `11111111-2222-3333-4444-555555555555`. */
  token?: string;
  /** Indexes the token may write to; the first is its default index. Default `['main']`. */
  indexes?: string[];
  /** Seed of every fault: the same seed and the same requests give the same answers. Default 1. */
  seed?: number;
  /** Share of event requests answered 503 code 9 (`Server is busy`), nothing stored. Drawn per request in arrival order. */
  busyRate?: number;
  /** A longer body is answered 413 and nothing is stored. Default 838860800 (limits.conf `max_content_length`). */
  maxContentLength?: number;
  /**
   * Indexer acknowledgement, as a token with `useACK` on: every event request needs a channel, gets
   * an `ackId`, and its events are stored only once an ack query has answered that id `true`.
   * Default false (events stored at once).
   */
  ack?: boolean;
  /** With `ack`: how many queries of an ackId answer `false` before one answers `true` (indexing lag). Default 1. */
  ackAfterPolls?: number;
  /**
   * With `ack`: share of ackIds that never turn `true`, their events never indexed, so a sender
   * that resends them after a timeout creates them once. Drawn per ackId in the order they are given.
   */
  lostAckRate?: number;
  /** Serve https with this key and certificate. Default: http. */
  tls?: StandInTls;
}

/** One indexed event: the fields it was sent with, its index filled in with the default. */
export interface HecEvent {
  time?: number | string;
  event: unknown;
  index: string;
  sourcetype?: string;
  source?: string;
  host?: string;
  fields?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A loopback stand-in of Splunk's HTTP Event Collector (HEC). */
export interface HecStandIn {
  /** `http://127.0.0.1:PORT` (`https://localhost:PORT` with TLS). */
  url: string;
  port: number;
  /** The token it requires. */
  token: string;
  /** Indexed events, in the order they were indexed (with `ack`: the order their acks turned true). */
  events(): HecEvent[];
  /** Requests received on the event and ack endpoints, whatever their answer. */
  readonly requests: number;
  close(): Promise<void>;
}

interface HecAnswer {
  status: number;
  body: Record<string, unknown>;
}

interface PendingAck {
  events: HecEvent[];
  polls: number;
  lost: boolean;
}

interface Channel {
  nextAckId: number;
  pending: Map<number, PendingAck>;
  indexed: Set<number>;
}

const EVENT_PATHS = new Set([
  '/services/collector',
  '/services/collector/event',
  '/services/collector/event/1.0',
]);
const ACK_PATHS = new Set(['/services/collector/ack', '/services/collector/ack/1.0']);
const HEALTH_PATHS = new Set(['/services/collector/health', '/services/collector/health/1.0']);
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An answer of HEC's status table: `{"text", "code"}` and, for an event's fault, its number. */
function hec(status: number, code: number, text: string, eventNumber?: number): HecAnswer {
  return {
    status,
    body: { text, code, ...(eventNumber !== undefined && { 'invalid-event-number': eventNumber }) },
  };
}

/** Starts an HEC stand-in on 127.0.0.1, port 0. */
export async function startHecStandIn(options: HecStandInOptions = {}): Promise<HecStandIn> {
  const token = options.token ?? '11111111-2222-3333-4444-555555555555';
  const indexes = options.indexes ?? ['main'];
  const seed = options.seed ?? 1;
  const ackAfterPolls = options.ackAfterPolls ?? 1;
  const maxContentLength = options.maxContentLength ?? 838_860_800;
  const indexed: HecEvent[] = [];
  const channels = new Map<string, Channel>();
  let requests = 0;
  let acksGiven = 0;

  const authorise = (req: IncomingMessage): HecAnswer | undefined => {
    const header = req.headers.authorization;
    if (header === undefined) return hec(401, 2, 'Token is required');
    const match = /^Splunk\s+(\S+)$/i.exec(header.trim());
    if (!match) return hec(401, 3, 'Invalid authorization');
    return match[1] === token ? undefined : hec(403, 4, 'Invalid token');
  };

  /** The request's channel, or the answer refusing it: `undefined` for none where none is needed. */
  const channelOf = (req: IncomingMessage, url: URL): Channel | HecAnswer | undefined => {
    const header = req.headers['x-splunk-request-channel'];
    const id = (typeof header === 'string' ? header : undefined) ?? url.searchParams.get('channel');
    if (!options.ack) return undefined;
    if (!id) return hec(400, 10, 'Data channel is missing');
    if (!GUID.test(id)) return hec(400, 11, 'Invalid data channel');
    let channel = channels.get(id.toLowerCase());
    if (!channel) {
      channel = { nextAckId: 0, pending: new Map(), indexed: new Set() };
      channels.set(id.toLowerCase(), channel);
    }
    return channel;
  };

  const receive = (req: IncomingMessage, url: URL, body: Buffer): HecAnswer => {
    if (draw(seed, 'busy', requests) < (options.busyRate ?? 0)) return hec(503, 9, 'Server is busy');
    const channel = channelOf(req, url);
    if (channel && 'status' in channel) return channel;
    const parsed = parseEvents(body.toString('utf8'), indexes);
    if (!Array.isArray(parsed)) return parsed;
    if (!channel) {
      indexed.push(...parsed);
      return hec(200, 0, 'Success');
    }
    const ackId = channel.nextAckId++;
    const lost = draw(seed, 'lost', acksGiven++) < (options.lostAckRate ?? 0);
    channel.pending.set(ackId, { events: parsed, polls: 0, lost });
    return { status: 200, body: { text: 'Success', code: 0, ackId } };
  };

  const query = (req: IncomingMessage, url: URL, body: Buffer): HecAnswer => {
    if (!options.ack) return hec(400, 14, 'ACK is disabled');
    const channel = channelOf(req, url);
    if (!channel) return hec(400, 10, 'Data channel is missing');
    if ('status' in channel) return channel;
    let ids: unknown;
    try {
      ids = (JSON.parse(body.toString('utf8')) as { acks?: unknown }).acks;
    } catch {
      ids = undefined;
    }
    if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id)))
      return hec(400, 6, 'Invalid data format');
    const acks: Record<string, boolean> = {};
    for (const id of ids as number[]) acks[id] = settle(channel, id);
    return { status: 200, body: { acks } };
  };

  /** Whether ackId `id` of `channel` is indexed, counting this query as one poll of it. */
  const settle = (channel: Channel, id: number): boolean => {
    if (channel.indexed.has(id)) return true;
    const pending = channel.pending.get(id);
    if (!pending || pending.lost || pending.polls++ < ackAfterPolls) return false;
    channel.pending.delete(id);
    channel.indexed.add(id);
    indexed.push(...pending.events);
    return true;
  };

  const listener = await listenStandIn((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    readBody(req, maxContentLength).then(
      ({ body }) => {
        const send = (answer: HecAnswer) =>
          sendBody(res, answer.status, answer.body, { 'content-type': 'application/json; charset=UTF-8' });
        if (HEALTH_PATHS.has(url.pathname)) return send(hec(200, 17, 'HEC is healthy'));
        const events = EVENT_PATHS.has(url.pathname);
        if ((!events && !ACK_PATHS.has(url.pathname)) || req.method !== 'POST')
          return send({
            status: 404,
            body: { text: 'The requested URL was not found on this server.', code: 404 },
          });
        requests++;
        // Splunk's status table has no code for an oversized body; the status is what a client sees.
        if (!body) return send({ status: 413, body: { text: 'Content length too large' } });
        const refused = authorise(req);
        if (refused) return send(refused);
        send(events ? receive(req, url, body) : query(req, url, body));
      },
      () => res.destroy(),
    );
  }, options.tls);

  return {
    url: listener.url,
    port: listener.port,
    token,
    events: () => [...indexed],
    get requests() {
      return requests;
    },
    close: listener.close,
  };
}

/**
 * Reads an event request: JSON objects one after another, any whitespace (or none) between them.
 * Each is checked as it is read, so the first fault is the one reported; `invalid-event-number`
 * counts from 0, except that splunkd reports an incorrect index one higher (its `Incorrect index`
 * answer to a single event says 1, as Splunk Connect for Syslog's documented index check shows).
 */
function parseEvents(text: string, indexes: string[]): HecEvent[] | HecAnswer {
  const events: HecEvent[] = [];
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text.charAt(at))) at++;
    if (at >= text.length) break;
    const n = events.length;
    const end = objectEnd(text, at);
    let value: unknown;
    try {
      value = end === -1 ? undefined : JSON.parse(text.slice(at, end));
    } catch {
      value = undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return hec(400, 6, 'Invalid data format', n);
    const event = value as Record<string, unknown>;
    if (!('event' in event)) return hec(400, 12, 'Event field is required', n);
    if (event.event === null || (typeof event.event === 'string' && event.event.trim() === ''))
      return hec(400, 13, 'Event field cannot be blank', n);
    if (event.index !== undefined && !indexes.includes(event.index as string))
      return hec(400, 7, 'Incorrect index', n + 1);
    events.push({
      ...event,
      index: (event.index as string | undefined) ?? (indexes[0] as string),
    } as HecEvent);
    at = end;
  }
  return events.length > 0 ? events : hec(400, 5, 'No data');
}

/** Where the JSON object opening at `start` ends (one past its `}`), or -1 if it does not. */
function objectEnd(text: string, start: number): number {
  if (text.charAt(start) !== '{') return -1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if ((c === 125 || c === 93) && --depth === 0) return i + 1;
  }
  return -1;
}
