// Standard Webhooks signatures of pushed audit events (https://www.standardwebhooks.com/): the
// HMAC-SHA256 of `${id}.${timestamp}.${body}` under a `whsec_` secret, over the body as sent (the
// gzip bytes when gzipped), and the bearer secret some senders use instead. Web Crypto only.

import { SvcError } from '../../core/errors/error-classes.js';
import { headerValues, type PushHeaders, singleHeader } from './headers.js';
import { bearerSecrets, sameBytes, webhookSecretKey } from './secrets.js';

/** What {@link verifyAuditPush} is given. */
export interface VerifyAuditPushInput {
  /** The request body exactly as received (before any gzip is inflated). */
  body: Uint8Array;
  /** The request headers; names are matched case-insensitively. */
  headers: PushHeaders;
  /**
   * Standard Webhooks secrets (`whsec_<base64 key>`); a push signed by any of them passes, so
   * during a rotation give the new and the old one. May be empty when `bearer` is given.
   */
  secrets: readonly string[];
  /** Secrets accepted as `Authorization: Bearer <secret>`, for senders that do not sign. Default none. */
  bearer?: readonly string[];
  /** How far `webhook-timestamp` may be from now, either way, in seconds. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The clock, in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
}

/**
 * The outcome of {@link verifyAuditPush}. `check` says which check passed, and nothing more is
 * claimed: `standard-webhooks` proves the body, id and timestamp came from a holder of one of the
 * secrets; `bearer` proves only that the sender knew a bearer secret (the body is not bound to it).
 * `reason` is one short line, never containing a secret or a header's value.
 */
export type PushCheck =
  | { ok: true; check: 'standard-webhooks'; id: string; timestamp: number }
  | { ok: true; check: 'bearer'; id?: undefined; timestamp?: undefined }
  | { ok: false; reason: string };

const DEFAULT_TOLERANCE_SECONDS = 300;
const UNIX_SECONDS = /^\d{1,15}$/;
const encoder = new TextEncoder();

function _bytes(body: Uint8Array | string): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

/** `${id}.${timestamp}.` followed by the body's bytes: what Standard Webhooks signs. */
function _signedContent(id: string, timestamp: number, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(`${id}.${timestamp}.`);
  const content = new Uint8Array(head.length + body.length);
  content.set(head);
  content.set(body, head.length);
  return content;
}

async function _hmac(key: Uint8Array, content: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey(
    'raw',
    Uint8Array.from(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, content));
}

function _base64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
}

/** The 32 bytes of a `v1,<base64>` entry, or undefined for another version or a malformed entry. */
function _v1Digest(entry: string): Uint8Array | undefined {
  // A `Headers` object joins repeated header lines with ", ", which leaves a comma on an entry.
  const [version, value] = entry.replace(/,$/, '').split(',', 2);
  if (version !== 'v1' || value === undefined || !/^[A-Za-z0-9+/]{43}=$/.test(value)) return undefined;
  return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
}

/**
 * Signs a push as Standard Webhooks does: the `v1,<base64 HMAC-SHA256>` entry of
 * `${id}.${timestamp}.${body}` under `secret`, for the `webhook-signature` header. For senders
 * and tests; several entries (a secret rotation) are joined with a space.
 *
 * @param secret `whsec_<base64 key>`.
 * @param id The `webhook-id` header.
 * @param timestamp The `webhook-timestamp` header, unix seconds.
 * @param body The body as sent: its bytes (the gzip bytes when gzipped), or a text signed as UTF-8.
 * @throws {SvcError} code `config` for a malformed secret or a timestamp that is not unix seconds.
 * @example
 * const signature = await signAuditPush(secret, 'msg_1', Math.floor(Date.now() / 1000), body);
 * headers.set('webhook-signature', signature);
 */
export async function signAuditPush(
  secret: string,
  id: string,
  timestamp: number,
  body: Uint8Array | string,
): Promise<string> {
  const key = webhookSecretKey(secret);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new SvcError('the timestamp must be whole unix seconds', 'config');
  }
  return `v1,${_base64(await _hmac(key, _signedContent(id, timestamp, _bytes(body))))}`;
}

/**
 * Checks a pushed request: Standard Webhooks when it carries `webhook-signature` and `secrets`
 * are given, else the bearer secret when it carries `Authorization` and `bearer` is given. A
 * request that is signed is judged by its signature alone, never passed on to the bearer check.
 * Any `v1` entry of the header may match any secret (rotation); other versions (`v1a`) are
 * skipped. Digests are compared in constant time. The real service's signing is not documented:
 * a pass says which of these two checks held, not that the service sent the push.
 *
 * @returns `{ ok: true, check }` (with the `webhook-id` and timestamp for Standard Webhooks), or
 *   `{ ok: false, reason }`, e.g. `no webhook-signature header`, `timestamp 360 s off (tolerance
 *   300 s)`, `no signature matches`, `bearer secret does not match`.
 * @throws {SvcError} code `config` for a malformed secret, no secret at all, or a bad tolerance.
 * @example
 * const check = await verifyAuditPush({ body, headers: request.headers, secrets: [process.env.PUSH_SECRET] });
 * if (!check.ok) return new Response(check.reason, { status: 401 });
 */
export async function verifyAuditPush(input: VerifyAuditPushInput): Promise<PushCheck> {
  const keys = input.secrets.map((secret, i) =>
    webhookSecretKey(secret, `secret ${i + 1} of ${input.secrets.length}`),
  );
  const bearer = bearerSecrets(input.bearer ?? []);
  if (keys.length === 0 && bearer.length === 0) {
    throw new SvcError('verifyAuditPush needs a whsec_ secret or a bearer secret', 'config');
  }
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new SvcError('toleranceSeconds must be a number of seconds, 0 or more', 'config');
  }
  const signatures = headerValues(input.headers, 'webhook-signature');
  if (signatures.length > 0 && keys.length > 0) {
    return _standardWebhooks(input, keys, signatures.join(' '), tolerance);
  }
  const authorization = singleHeader(input.headers, 'authorization');
  if (authorization !== undefined && bearer.length > 0) return _bearer(authorization, bearer);
  if (bearer.length === 0) return { ok: false, reason: 'no webhook-signature header' };
  if (keys.length === 0) return { ok: false, reason: 'no Authorization header' };
  return { ok: false, reason: 'no webhook-signature or Authorization header' };
}

async function _standardWebhooks(
  input: VerifyAuditPushInput,
  keys: readonly Uint8Array[],
  signatureHeader: string,
  tolerance: number,
): Promise<PushCheck> {
  const id = singleHeader(input.headers, 'webhook-id');
  if (id === undefined || id === '') return { ok: false, reason: 'no webhook-id header' };
  if (id === null) return { ok: false, reason: 'several webhook-id headers' };
  const stamp = singleHeader(input.headers, 'webhook-timestamp');
  if (stamp === undefined) return { ok: false, reason: 'no webhook-timestamp header' };
  if (stamp === null || !UNIX_SECONDS.test(stamp.trim())) {
    return { ok: false, reason: 'webhook-timestamp is not unix seconds' };
  }
  const timestamp = Number(stamp.trim());
  const off = Math.abs(Math.floor((input.now ?? Date.now)() / 1000) - timestamp);
  if (off > tolerance) return { ok: false, reason: `timestamp ${off} s off (tolerance ${tolerance} s)` };

  const offered = signatureHeader
    .split(/\s+/)
    .map(_v1Digest)
    .filter((digest) => digest !== undefined);
  if (offered.length === 0) return { ok: false, reason: 'no v1 signature in webhook-signature' };
  const content = _signedContent(id, timestamp, input.body);
  let matched = false;
  for (const key of keys) {
    const expected = await _hmac(key, content);
    for (const digest of offered) if (sameBytes(digest, expected)) matched = true;
  }
  return matched
    ? { ok: true, check: 'standard-webhooks', id, timestamp }
    : { ok: false, reason: 'no signature matches' };
}

async function _bearer(authorization: string | null, secrets: readonly string[]): Promise<PushCheck> {
  const credential = authorization === null ? undefined : /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
  if (credential === undefined) return { ok: false, reason: 'Authorization is not one Bearer credential' };
  // Digests of both sides, so the comparison takes the same time whatever the lengths.
  const sent = await _sha256(credential);
  let matched = false;
  for (const secret of secrets) if (sameBytes(sent, await _sha256(secret))) matched = true;
  return matched ? { ok: true, check: 'bearer' } : { ok: false, reason: 'bearer secret does not match' };
}

async function _sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}
