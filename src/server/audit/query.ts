import { AuditTimestamp, DEFAULT_PAGE_SIZE, DEFAULT_RANGE_MS, MAX_PAGE_SIZE } from '../../audit/schemas.js';
import { HttpProblem } from '../problem.js';
import { type CursorPayload, verifyCursor } from './cursor.js';

/** A request of `GET /platform/v1/events` resolved to numbers. */
export interface EventsQuery {
  fromMs: number;
  toMs: number;
  pageSize: number;
  page: number;
  /** Present when a cursor was given; its range and snapshot win. */
  cursor: CursorPayload | undefined;
}

function invalid(path: string, message: string, detail: string): HttpProblem {
  return new HttpProblem(422, detail, [{ path, message }]);
}

function timestamp(query: URLSearchParams, name: 'from' | 'to'): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!AuditTimestamp.safeParse(value).success) {
    throw invalid(
      name,
      'must be an ISO 8601 UTC timestamp such as 2026-01-31T00:00:00Z',
      `${name} is not an ISO 8601 timestamp`,
    );
  }
  return Date.parse(value);
}

function whole(query: URLSearchParams, name: string, fallback: number, min: number): number {
  const value = query.get(name);
  if (value === null) return fallback;
  const n = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min)) throw invalid(name, `must be a whole number of at least ${min}`, `${name} is invalid`);
  return n;
}

/**
 * Reads and checks the query per the reference: 422 for a non-ISO `from`/`to`, `from` after `to`,
 * or a cursor this server did not issue for this key and range. `pageSize` above 1000 is served
 * as 1000; `page` is ignored when a cursor is set.
 */
export function parseEventsQuery(
  query: URLSearchParams,
  secret: Buffer,
  owner: string,
  nowMs: number,
): EventsQuery {
  const fromGiven = timestamp(query, 'from');
  const toGiven = timestamp(query, 'to');
  const pageSize = Math.min(whole(query, 'pageSize', DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const cursorText = query.get('cursor');
  if (cursorText !== null) {
    const cursor = verifyCursor(secret, cursorText);
    if (!cursor || cursor.owner !== owner) {
      throw invalid(
        'cursor',
        'was not returned by this API for this key',
        'cursor was not returned by this API',
      );
    }
    if (
      (fromGiven !== undefined && fromGiven !== cursor.fromMs) ||
      (toGiven !== undefined && toGiven !== cursor.toMs)
    ) {
      throw invalid(
        'cursor',
        'belongs to another range',
        'cursor belongs to another range: pass the same from and to as for the first page',
      );
    }
    return { fromMs: cursor.fromMs, toMs: cursor.toMs, pageSize, page: cursor.page, cursor };
  }
  const toMs = toGiven ?? nowMs;
  const fromMs = fromGiven ?? toMs - DEFAULT_RANGE_MS;
  if (fromMs > toMs) throw invalid('from', 'must not lie after to', 'from lies after to');
  const page = whole(query, 'page', 0, 0);
  return { fromMs, toMs, pageSize, page, cursor: undefined };
}
