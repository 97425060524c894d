import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { seededRandom } from '../../src/server/random.js';
import { sendS3Error } from './s3-xml.js';

/** The recorded-shape S3 answers under test/fixtures/s3/ (see its README). */
export type S3Fixture =
  | 'precondition-failed'
  | 'object-lock-missing'
  | 'object-lock-config-not-found'
  | 'access-denied'
  | 'no-such-bucket'
  | 'expired-token'
  | 'slow-down';

/** One fixture: status, headers and XML body, as S3 documents them. */
export interface S3FixtureAnswer {
  about: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 's3');

/** Reads one fixture of test/fixtures/s3/. */
export function s3Fixture(name: S3Fixture): S3FixtureAnswer {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as S3FixtureAnswer;
}

/** Answers matching requests with a fixture instead of forwarding them. */
export interface S3AnswerRule {
  /** The fixture to answer with; or give {@link reply}. */
  fixture?: S3Fixture;
  /** An answer made for each request (its URL): a store misbehaving in ways no fixture records. */
  reply?: (url: URL) => S3FixtureAnswer;
  /** HTTP method to match (`PUT`, `GET`, ...). Default: any. */
  method?: string;
  /** Tested against the request path, `/bucket/key` (percent-decoded). Default: any. */
  path?: RegExp;
  /** A request header that must be present (`if-none-match`, `x-amz-object-lock-mode`). */
  header?: string;
  /** A query parameter that must be present (`uploads`, `object-lock`, `retention`). */
  query?: string;
  /** How many requests the rule answers; later ones go on. Default: all. */
  times?: number;
}

/** Options of {@link startS3FaultProxy}. */
export interface S3FaultOptions {
  /** The S3 endpoint to forward to. Without it, a request no rule answers gets 501 NotImplemented. */
  target?: string;
  /** Share (0 to 1) of forwarded requests answered 503 SlowDown instead. Default 0. */
  slowDown?: number;
  /** Share of forwarded requests whose connection is reset before they reach the target. Default 0. */
  resetBefore?: number;
  /**
   * Share of forwarded requests that reach the target and take effect, but whose connection is
   * reset before the answer: the client cannot tell whether its write happened. Default 0.
   */
  resetAfter?: number;
  /** Seed of the fault sequence: the same seed and request order give the same faults. Default 1. */
  seed?: number;
  /** Fixture answers, tried in order before any fault is drawn. */
  answers?: S3AnswerRule[];
}

/** What the proxy did with one request. */
export interface S3ProxyLogEntry {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  outcome:
    | 'forwarded'
    | 'slow-down'
    | 'reset-before'
    | 'reset-after'
    | 'not-implemented'
    | 'reply'
    | S3Fixture;
}

/** A loopback proxy in front of an S3 server that injects faults and fixture answers. */
export interface S3FaultProxy {
  /** `http://127.0.0.1:<port>`: point `AWS_ENDPOINT_URL_S3` here. */
  endpoint: string;
  /** Every request seen, in arrival order. */
  log: S3ProxyLogEntry[];
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1:0 that answers matching requests with fixtures (`answers`), then
 * draws from a seeded sequence whether to answer 503 SlowDown (S3's XML error), reset the
 * connection before forwarding, or forward and reset before the answer; otherwise it forwards to
 * `target` unchanged. With no `target` it is a stub server answering only from fixtures.
 */
export async function startS3FaultProxy(options: S3FaultOptions = {}): Promise<S3FaultProxy> {
  const random = seededRandom(options.seed ?? 1);
  const rules = (options.answers ?? []).map((rule) => ({
    ...rule,
    left: rule.times ?? Number.POSITIVE_INFINITY,
  }));
  const target = options.target ? new URL(options.target) : undefined;
  const log: S3ProxyLogEntry[] = [];

  const answer = (req: IncomingMessage, res: ServerResponse, fixture: S3FixtureAnswer) => {
    // Read the body first, as S3 does before it answers a refused upload.
    req.resume();
    req.on('end', () => {
      const body = req.method === 'HEAD' ? '' : fixture.body;
      res.writeHead(fixture.status, {
        ...fixture.headers,
        'content-length': Buffer.byteLength(fixture.body),
      });
      res.end(body);
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://s3.test');
    let path = url.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // keep it encoded: rules then simply do not match
    }
    const entry: S3ProxyLogEntry = {
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      outcome: 'forwarded',
    };
    log.push(entry);
    const rule = rules.find(
      (r) =>
        r.left > 0 &&
        (r.method === undefined || r.method === req.method) &&
        (r.path === undefined || r.path.test(path)) &&
        (r.header === undefined || req.headers[r.header.toLowerCase()] !== undefined) &&
        (r.query === undefined || url.searchParams.has(r.query)),
    );
    if (rule) {
      rule.left -= 1;
      entry.outcome = rule.fixture ?? 'reply';
      return answer(req, res, rule.reply ? rule.reply(url) : s3Fixture(rule.fixture as S3Fixture));
    }
    if (!target) {
      entry.outcome = 'not-implemented';
      req.resume();
      return req.on('end', () =>
        sendS3Error(res, 501, 'NotImplemented', 'The stub has no answer for this request.'),
      );
    }
    const draw = random();
    const slowDown = options.slowDown ?? 0;
    const resetBefore = slowDown + (options.resetBefore ?? 0);
    const resetAfter = resetBefore + (options.resetAfter ?? 0);
    if (draw < slowDown) {
      entry.outcome = 'slow-down';
      return answer(req, res, s3Fixture('slow-down'));
    }
    if (draw < resetBefore) {
      entry.outcome = 'reset-before';
      return req.socket.resetAndDestroy();
    }
    const lose = draw < resetAfter;
    if (lose) entry.outcome = 'reset-after';
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (up) => {
        if (lose) {
          up.resume();
          up.on('end', () => req.socket.resetAndDestroy());
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    req.on('close', () => {
      if (!req.complete) upstream.destroy();
    });
    req.pipe(upstream);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
