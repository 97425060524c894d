import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  type BulkAnswer,
  type BulkFlavor,
  clusterInfo,
  type ItemError,
  itemExists,
  itemMalformed,
  itemRejected,
  itemUnparsable,
  overloaded,
  requestError,
  unauthenticated,
  unavailable,
} from './bulk-answers.js';
import { type BulkOp, parseBulk } from './bulk-body.js';
import { draw, listenStandIn, readBody, type StandInTls, sendBody } from './standin-http.js';

export type { BulkFlavor } from './bulk-answers.js';

/** Credentials a {@link startBulkStandIn} requires; either one given lets a request in. */
export interface BulkAuth {
  /** The value after `Authorization: ApiKey ` (Elasticsearch's base64 of `id:api_key`). */
  apiKey?: string;
  /** `Authorization: Basic base64(username:password)`. */
  basic?: { username: string; password: string };
}

/** What {@link BulkStandInOptions.onRequest} learns of each `_bulk` request once answered. */
export interface BulkRequestInfo {
  /** The request's path and query. */
  path: string;
  status: number;
  /** Body bytes received. */
  bytes: number;
  /** Actions the body held (0 when it was refused whole). */
  items: number;
}

/**
 * Options of {@link startBulkStandIn}. A rate is a share from 0 to 1 and defaults to 0. Every
 * fault is drawn from `seed`: the same seed and the same requests give the same answers.
 */
export interface BulkStandInOptions {
  /** Answer as Elasticsearch 8.15 or OpenSearch 2.17 (error type names, `GET /`). Default `elasticsearch`. */
  flavor?: BulkFlavor;
  /** Seed of every fault. Default 1. */
  seed?: number;
  /**
   * Share of item attempts answered 429 (the shard's write queue is full). Drawn from the index,
   * the id and the attempt number, so the same item sent again may pass.
   */
  itemRejectRate?: number;
  /**
   * Share of documents answered 400 (a field the mapping refuses). Drawn from the index and the id
   * only, so that document is refused on every attempt.
   */
  badItemRate?: number;
  /** A longer body is answered 413 with an empty body, as Elasticsearch does, and nothing is stored. Default 100 MiB (`http.max_content_length`). */
  maxBodyBytes?: number;
  /** Share of `_bulk` requests refused whole with 503 (no master), nothing stored. Drawn per request in arrival order. */
  wholeRequest503Rate?: number;
  /** Share of `_bulk` requests refused whole with 429 (coordinating queue full), nothing stored. Drawn per request in arrival order. */
  wholeRequest429Rate?: number;
  /** With a whole-request 429 or 503, a `Retry-After` header of this many seconds. Default: none. */
  retryAfterSeconds?: number;
  /** Require credentials on every request (401 `security_exception` without them). Default: none required. */
  auth?: BulkAuth;
  /** Serve https with this key and certificate. Default: http. */
  tls?: StandInTls;
  /**
   * Keep each stored document's source line, for {@link BulkStandIn.docs}. `false` keeps only the
   * ids (and `docs` maps them to `undefined`): a million documents fit in little memory. Default true.
   */
  keepSources?: boolean;
  /** Called after each `_bulk` answer. */
  onRequest?(info: BulkRequestInfo): void;
}

/** A loopback stand-in of the Elasticsearch / OpenSearch `_bulk` API. */
export interface BulkStandIn {
  /** `http://127.0.0.1:PORT` (`https://localhost:PORT` with TLS). */
  url: string;
  port: number;
  /** The index's stored documents, id to parsed source, in the order they were created. */
  docs(index: string): Map<string, unknown>;
  /** How many documents the index holds. */
  count(index: string): number;
  /** Per id of the index, how many `create` or `index` items for it arrived (refused ones too). */
  createAttempts(index: string): ReadonlyMap<string, number>;
  /** `_bulk` requests received, whatever their answer. */
  readonly requests: number;
  /** Body bytes of all `_bulk` requests. */
  readonly bytesReceived: number;
  /** `create` items answered 409 because the id existed. */
  readonly duplicatesRefused: number;
  /** Items answered 429 ({@link BulkStandInOptions.itemRejectRate}). */
  readonly itemsRejected: number;
  /** Items answered 400 (a drawn bad document or a source line that is not a JSON object). */
  readonly itemsUnparsable: number;
  close(): Promise<void>;
}

interface IndexState {
  uuid: string;
  /** id -> source line ('' when sources are not kept). */
  sources: Map<string, string>;
  /** Versions past 1 (documents an `index` action replaced). */
  versions: Map<string, number>;
  attempts: Map<string, number>;
  seqNo: number;
}

const BULK_PATH = /^\/(?:([^/]+)\/)?_bulk\/?$/;
const COUNT_PATH = /^\/([^/_][^/]*)\/_count\/?$/;
/** What Elasticsearch reads a bulk body as: NDJSON or JSON, plain or in the REST-compatibility form. */
const BULK_TYPES = /^application\/(?:vnd\.elasticsearch\+)?(?:x-ndjson|json)\s*(?:;|$)/i;
const COMPATIBLE = /application\/vnd\.elasticsearch\+/i;

/** Starts a `_bulk` stand-in on 127.0.0.1, port 0. */
export async function startBulkStandIn(options: BulkStandInOptions = {}): Promise<BulkStandIn> {
  const flavor = options.flavor ?? 'elasticsearch';
  const seed = options.seed ?? 1;
  const maxBodyBytes = options.maxBodyBytes ?? 100 * 1024 * 1024;
  const keepSources = options.keepSources ?? true;
  const indexes = new Map<string, IndexState>();
  const counts = {
    requests: 0,
    bytesReceived: 0,
    duplicatesRefused: 0,
    itemsRejected: 0,
    itemsUnparsable: 0,
  };
  let autoIds = 0;

  const stateOf = (index: string): IndexState => {
    let state = indexes.get(index);
    if (!state) {
      const part = (n: number) =>
        Math.floor(draw(seed, 'uuid', index, n) * 2 ** 32)
          .toString(36)
          .padStart(7, '0');
      const uuid = `${part(0)}${part(1)}${part(2)}`.slice(0, 20);
      state = { uuid, sources: new Map(), versions: new Map(), attempts: new Map(), seqNo: 0 };
      indexes.set(index, state);
    }
    return state;
  };

  const authenticate = (req: IncomingMessage): BulkAnswer | undefined => {
    const auth = options.auth;
    if (!auth?.apiKey && !auth?.basic) return undefined;
    const uri = req.url ?? '/';
    const header = req.headers.authorization;
    if (!header)
      return unauthenticated(flavor, `missing authentication credentials for REST request [${uri}]`);
    const space = header.indexOf(' ');
    const scheme = header.slice(0, space).toLowerCase();
    const value = header.slice(space + 1).trim();
    if (scheme === 'apikey' && auth.apiKey !== undefined && value === auth.apiKey) return undefined;
    if (scheme === 'basic' && auth.basic) {
      const { username, password } = auth.basic;
      if (value === Buffer.from(`${username}:${password}`).toString('base64')) return undefined;
      const user = Buffer.from(value, 'base64').toString('utf8').split(':')[0];
      return unauthenticated(flavor, `unable to authenticate user [${user}] for REST request [${uri}]`);
    }
    return unauthenticated(
      flavor,
      'unable to authenticate with provided credentials and anonymous access is not allowed for this request',
    );
  };

  const apply = (op: BulkOp): Record<string, unknown> => {
    const state = stateOf(op.index);
    // Elasticsearch makes up a 20-character id for an action without one.
    const id = op.id ?? `standin${String(++autoIds).padStart(13, '0')}`;
    const attempt = (state.attempts.get(id) ?? 0) + 1;
    state.attempts.set(id, attempt);
    const refuse = (status: number, error: ItemError) => ({ _index: op.index, _id: id, status, error });
    // A full write queue refuses before the shard looks at the document; parsing comes before the
    // engine's version check.
    if (draw(seed, 'reject', op.index, id, attempt) < (options.itemRejectRate ?? 0)) {
      counts.itemsRejected++;
      return refuse(429, itemRejected(flavor));
    }
    let doc: unknown;
    try {
      doc = JSON.parse(op.source);
    } catch (error) {
      counts.itemsUnparsable++;
      return refuse(400, itemMalformed(flavor, (error as Error).message));
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
      counts.itemsUnparsable++;
      return refuse(400, itemMalformed(flavor, 'the document source must be a JSON object'));
    }
    if (draw(seed, 'bad', op.index, id) < (options.badItemRate ?? 0)) {
      counts.itemsUnparsable++;
      const field = Object.keys(doc)[0];
      const value = field === undefined ? undefined : (doc as Record<string, unknown>)[field];
      return refuse(400, itemUnparsable(flavor, id, op.source, field, value));
    }
    const existed = state.sources.has(id);
    const current = state.versions.get(id) ?? 1;
    if (existed && op.action === 'create') {
      counts.duplicatesRefused++;
      return refuse(409, itemExists(op.index, state.uuid, id, current));
    }
    const version = existed ? current + 1 : 1;
    state.sources.set(id, keepSources ? op.source : '');
    if (version > 1) state.versions.set(id, version);
    return {
      _index: op.index,
      _id: id,
      _version: version,
      result: existed ? 'updated' : 'created',
      _shards: { total: 2, successful: 1, failed: 0 },
      _seq_no: state.seqNo++,
      _primary_term: 1,
      status: existed ? 200 : 201,
    };
  };

  const bulk = (
    req: IncomingMessage,
    pathIndex: string | undefined,
    body: Buffer,
  ): BulkAnswer & { items: number } => {
    const refused = (answer: BulkAnswer) => ({ ...answer, items: 0 });
    const contentType = req.headers['content-type'];
    if (body.length === 0)
      return refused(requestError(400, { type: 'parse_exception', reason: 'request body is required' }));
    if (contentType === undefined)
      return refused({ status: 406, body: { error: 'Content-Type header is missing', status: 406 } });
    if (!BULK_TYPES.test(contentType))
      return refused({
        status: 406,
        body: { error: `Content-Type header [${contentType}] is not supported`, status: 406 },
      });
    const denied = authenticate(req);
    if (denied) return refused(denied);
    const retry: OutgoingHttpHeaders =
      options.retryAfterSeconds === undefined ? {} : { 'retry-after': String(options.retryAfterSeconds) };
    if (draw(seed, '503', counts.requests) < (options.wholeRequest503Rate ?? 0))
      return refused(unavailable(retry));
    if (draw(seed, '429', counts.requests) < (options.wholeRequest429Rate ?? 0))
      return refused(overloaded(flavor, retry));
    const ops = parseBulk(body.toString('utf8'), pathIndex);
    if (!Array.isArray(ops)) return refused(ops);
    const started = performance.now();
    const items = ops.map((op) => ({ [op.action]: apply(op) }));
    const errors = items.some((item) => (Object.values(item)[0] as { status: number }).status >= 300);
    return {
      status: 200,
      body: { took: Math.round(performance.now() - started), errors, items },
      items: ops.length,
    };
  };

  const listener = await listenStandIn((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    readBody(req, maxBodyBytes).then(
      ({ body, bytes }) => {
        const product: OutgoingHttpHeaders =
          flavor === 'elasticsearch' ? { 'x-elastic-product': 'Elasticsearch' } : {};
        const json =
          flavor === 'opensearch'
            ? 'application/json; charset=UTF-8'
            : COMPATIBLE.test(req.headers.accept ?? '')
              ? 'application/vnd.elasticsearch+json;compatible-with=8'
              : 'application/json';
        const send = (answer: BulkAnswer) =>
          sendBody(res, answer.status, answer.body, { ...product, 'content-type': json, ...answer.headers });
        const route = BULK_PATH.exec(url.pathname);
        if (!route) {
          if (url.pathname === '/' && (req.method === 'GET' || req.method === 'HEAD'))
            return send(authenticate(req) ?? clusterInfo(flavor));
          // `GET /<index>/_count`: how many documents the index holds, as Elasticsearch answers it.
          const counted = COUNT_PATH.exec(url.pathname);
          if (counted && req.method === 'GET')
            return send(
              authenticate(req) ?? {
                status: 200,
                body: {
                  count: indexes.get(decodeURIComponent(counted[1] as string))?.sources.size ?? 0,
                  _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
                },
              },
            );
          return send({
            status: 400,
            body: { error: `no handler found for uri [${req.url}] and method [${req.method}]` },
          });
        }
        if (req.method !== 'POST' && req.method !== 'PUT')
          return send({
            status: 405,
            body: {
              error: `Incorrect HTTP method for uri [${req.url}] and method [${req.method}], allowed: [POST, PUT]`,
              status: 405,
            },
            headers: { allow: 'POST,PUT' },
          });
        counts.requests++;
        counts.bytesReceived += bytes;
        if (!body) {
          // Elasticsearch answers a body past http.max_content_length with 413, no body, and closes.
          sendBody(res, 413, '', { ...product, connection: 'close' });
          options.onRequest?.({ path: req.url ?? '/', status: 413, bytes, items: 0 });
          return;
        }
        const answer = bulk(req, route[1] === undefined ? undefined : decodeURIComponent(route[1]), body);
        send(answer);
        options.onRequest?.({ path: req.url ?? '/', status: answer.status, bytes, items: answer.items });
      },
      () => res.destroy(),
    );
  }, options.tls);

  return {
    url: listener.url,
    port: listener.port,
    docs: (index) => {
      const sources = indexes.get(index)?.sources ?? new Map<string, string>();
      return new Map([...sources].map(([id, line]) => [id, line === '' ? undefined : JSON.parse(line)]));
    },
    count: (index) => indexes.get(index)?.sources.size ?? 0,
    createAttempts: (index) => indexes.get(index)?.attempts ?? new Map(),
    get requests() {
      return counts.requests;
    },
    get bytesReceived() {
      return counts.bytesReceived;
    },
    get duplicatesRefused() {
      return counts.duplicatesRefused;
    },
    get itemsRejected() {
      return counts.itemsRejected;
    },
    get itemsUnparsable() {
      return counts.itemsUnparsable;
    },
    close: listener.close,
  };
}
