import type { IncomingMessage, ServerResponse } from 'node:http';
import { pushChallengeAnswer } from '../../audit/push/challenge.js';
import { bearerSecrets, webhookSecretKey } from '../../audit/push/secrets.js';
import { SvcError } from '../../core/errors/error-classes.js';
import { allowedHostHeaders, isAllowedHost } from '../../core/host-guard.js';
import { readNodeBody } from '../../core/request-body.js';
import { openArchiveStore } from '../audit-store/open-store.js';
import { closeHttp, serveHttp } from '../http/listen.js';
import { type AcceptSettings, acceptPush, type PushAnswer } from './accept.js';
import {
  type AuditReceiver,
  type AuditReceiverOptions,
  DEFAULT_RECEIVE_MAX_BODY_BYTES,
  MAX_RECEIVE_BODY_BYTES,
  RECEIVE_HEALTH_PATH,
  type ReceiverHealth,
} from './options.js';
import { PushedIds } from './pushed-ids.js';
import { SpoolView } from './spool-view.js';

// The receiver's server, loaded by `startAuditReceiver` when it is called (receive.ts).

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(`${JSON.stringify(body)}\n`);
}

/** The options checked; a `config` SvcError names the first that is wrong (never a secret's value). */
function checked(options: AuditReceiverOptions) {
  const host = options.host ?? '127.0.0.1';
  const secrets = options.secrets ?? [];
  for (const [i, secret] of secrets.entries())
    webhookSecretKey(secret, `secret ${i + 1} of ${secrets.length}`);
  const bearer = bearerSecrets(options.bearer ?? []);
  if (!LOOPBACK.has(host) && secrets.length === 0 && bearer.length === 0)
    throw new SvcError(
      `receiving on ${host} (not loopback) needs a whsec_ secret or a bearer secret: anyone who reaches the port could write into the archive`,
      'config',
    );
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_RECEIVE_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1 || maxBodyBytes > MAX_RECEIVE_BODY_BYTES)
    throw new SvcError('maxBodyBytes must be a whole number from 1 to 268435456 (256 MiB)', 'config');
  const toleranceSeconds = options.toleranceSeconds ?? 300;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0)
    throw new SvcError('toleranceSeconds must be a number of seconds, 0 or more', 'config');
  return { host, secrets, bearer, maxBodyBytes, toleranceSeconds };
}

/** A GET or HEAD: the health document, a sender's verification challenge, else 404. */
async function answerGet(
  req: IncomingMessage,
  res: ServerResponse,
  path: string | undefined,
  health: () => Promise<ReceiverHealth>,
): Promise<void> {
  if (path === RECEIVE_HEALTH_PATH) {
    try {
      return send(res, 200, await health());
    } catch (error) {
      return send(res, 503, { status: 'failing', error: (error as Error).message });
    }
  }
  const challenge = pushChallengeAnswer(req.headers);
  if (challenge !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    return void res.end(challenge);
  }
  send(res, 404, { error: `not found: POST pushes to any path, GET ${RECEIVE_HEALTH_PATH}` });
}

/** The answer to a body over the cap (nothing past it was read). */
function tooLarge(maxBodyBytes: number): PushAnswer {
  const reason = `body over ${maxBodyBytes} bytes`;
  return {
    status: 413,
    body: { error: reason },
    report: { status: 413, events: 0, spooled: 0, duplicates: 0, reason },
  };
}

/**
 * The listener's bounds. Senders keep their connections alive (the reference server: 4 at a
 * time); the bounds stop one that does not, or that stalls, from exhausting descriptors.
 */
function receiverLimits(options: AuditReceiverOptions) {
  return {
    maxConnections: options.maxConnections ?? 64,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 60_000,
    keepAliveTimeoutMs: 5000,
  };
}

/** Starts the receiver `startAuditReceiver` documents. */
export async function startReceiver(options: AuditReceiverOptions): Promise<AuditReceiver> {
  const { host, secrets, bearer, maxBodyBytes, toleranceSeconds } = checked(options);
  const now = options.now ?? Date.now;
  const store = await openArchiveStore(options.dir, {
    ...(options.fileMode !== undefined && { fileMode: options.fileMode }),
    ...(options.s3 && { s3: options.s3 }),
  });
  await store.prepare();
  const { view, ids } = await SpoolView.open(store, (window) => new PushedIds(window), now);
  const settings: AcceptSettings = { store, ids, view, secrets, bearer, toleranceSeconds, maxBodyBytes, now };
  const startedAt = new Date(now()).toISOString();
  const totals = { accepted: 0, refused: 0, spooled: 0, duplicates: 0 };
  let lastPushAt: string | null = null;
  let lastEventMs: number | null = null;

  const health = async (): Promise<ReceiverHealth> => ({
    status: 'ok',
    startedAt,
    ...totals,
    lastPushAt,
    lastEventAt: lastEventMs === null ? null : new Date(lastEventMs).toISOString(),
    backlog: await view.backlog(),
  });

  const answer = (res: ServerResponse, outcome: PushAnswer): void => {
    const { report } = outcome;
    if (outcome.status < 300) {
      totals.accepted += 1;
      totals.spooled += report.spooled;
      totals.duplicates += report.duplicates;
      lastPushAt = new Date(now()).toISOString();
    } else totals.refused += 1;
    send(res, outcome.status, outcome.body, {
      ...(outcome.retryAfter !== undefined && { 'retry-after': String(outcome.retryAfter) }),
    });
    options.onPush?.(report);
  };

  /**
   * A POST's body read and accepted; undefined when the request went away. Not held here while
   * the push is written (acceptPush lets go of it once read), so a busy receiver's bodies do not
   * outlive young-generation collections.
   */
  const post = async (req: IncomingMessage): Promise<PushAnswer | undefined> => {
    // Counted on the bytes received (Content-Length or chunked): past the cap nothing more is read.
    const read = await readNodeBody(req, maxBodyBytes);
    if (read.ok) return acceptPush(settings, read.bytes, req.headers);
    return read.reason === 'too-large' ? tooLarge(maxBodyBytes) : undefined;
  };

  let hosts: ReadonlySet<string> | undefined;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // DNS rebinding: on loopback, a page whose name now resolves to 127.0.0.1 sends its own name.
    if (hosts && !isAllowedHost(req.headers.host, hosts)) return send(res, 403, { error: 'host not served' });
    // A page in the user's browser may POST to a loopback port (a "simple" cross-origin request);
    // senders are servers and send no Origin.
    if (req.headers.origin !== undefined)
      return send(res, 403, { error: 'browser requests are not accepted' });
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' || req.method === 'HEAD') return answerGet(req, res, path, health);
    if (req.method !== 'POST') return send(res, 405, { error: 'POST only' }, { allow: 'GET, POST' });
    const outcome = await post(req);
    if (outcome === undefined) return;
    if (outcome.status === 413) res.setHeader('connection', 'close');
    if (outcome.newestMs !== undefined && (lastEventMs === null || outcome.newestMs > lastEventMs))
      lastEventMs = outcome.newestMs;
    answer(res, outcome);
  };

  const { server, baseUrl, port } = await serveHttp(
    'startAuditReceiver',
    receiverLimits(options),
    handle,
    host,
    options.port ?? 0,
  );
  if (LOOPBACK.has(host)) hosts = allowedHostHeaders(host, port);
  return { url: `${baseUrl}/`, port, health, close: () => closeHttp(server) };
}
