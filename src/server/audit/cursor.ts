import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a cursor carries: the fixed range, the snapshot and the last event delivered. */
export interface CursorPayload {
  /** Owner key the cursor was issued for. */
  owner: string;
  fromMs: number;
  toMs: number;
  /** Segments visible to the reading (see `AuditStore.snapshot`). */
  snapshot: number;
  lastOcc: number;
  lastId: string;
  /** Index of the page this cursor leads to. */
  page: number;
}

function mac(secret: Buffer, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** `base64url(json).base64url(hmac)`: opaque to clients, and any change breaks the signature. */
export function signCursor(secret: Buffer, payload: CursorPayload): string {
  const p = payload;
  const body = Buffer.from(
    JSON.stringify([1, p.owner, p.fromMs, p.toMs, p.snapshot, p.lastOcc, p.lastId, p.page]),
  ).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

const isInt = (v: unknown): v is number => Number.isSafeInteger(v);

/** The payload of a cursor this server issued, or undefined for a tampered, foreign or malformed one. */
export function verifyCursor(secret: Buffer, cursor: string): CursorPayload | undefined {
  const dot = cursor.indexOf('.');
  if (dot <= 0 || cursor.length > 2048) return undefined;
  const body = cursor.slice(0, dot);
  const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
  const expected = mac(secret, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed[0] !== 1) return undefined;
  const [, owner, fromMs, toMs, snapshot, lastOcc, lastId, page] = parsed as unknown[];
  if (typeof owner !== 'string' || typeof lastId !== 'string') return undefined;
  if (!isInt(fromMs) || !isInt(toMs) || !isInt(snapshot) || !isInt(lastOcc) || !isInt(page)) return undefined;
  return { owner, fromMs, toMs, snapshot, lastOcc, lastId, page };
}
