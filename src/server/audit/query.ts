import type * as z from 'zod/mini';
import {
  type AuditEventsQuery,
  AuditEventsQuerySchema,
  FROM_AFTER_TO,
  resolveRange,
} from '../../audit/query.js';
import { toIssues } from '../../core/zod-issues.js';
import { HttpProblem, type ProblemIssue } from '../problem.js';
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

const NOT_OURS = 'cursor was not returned by this API';
const NUMBERS = new Set(['pageSize', 'page']);

/** The `detail` of a 422 for its first issue, e.g. `from is not an ISO 8601 timestamp`. */
function detailOf(issue: ProblemIssue | undefined): string {
  if (!issue) return 'Invalid query';
  if (issue.message === FROM_AFTER_TO) return 'from lies after to';
  if (issue.path === 'from' || issue.path === 'to') return `${issue.path} is not an ISO 8601 timestamp`;
  if (issue.path === 'cursor') return NOT_OURS;
  return `${issue.path} is invalid`;
}

function check(input: unknown): AuditEventsQuery {
  const parsed = AuditEventsQuerySchema().safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = toIssues(parsed.error as z.core.$ZodError);
  throw new HttpProblem(422, detailOf(issues[0]), issues);
}

/**
 * The URL's values as input of {@link AuditEventsQuery}: numbers as numbers, `page` left out when a
 * cursor is set (the API ignores it then), unknown parameters ignored. A `pageSize` above 1000 is
 * refused by the schema (422), like 0: the document, the client and the server say the same.
 */
function wireInput(query: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name of Object.keys(AuditEventsQuerySchema().shape)) {
    const value = query.get(name);
    if (value === null || (name === 'page' && query.has('cursor'))) continue;
    const number = NUMBERS.has(name) && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : undefined;
    input[name] = number ?? value;
  }
  return input;
}

/**
 * Reads and checks the query with the library's {@link AuditEventsQuery}: 422 for a non-ISO
 * `from`/`to`, `from` after `to`, or a cursor this server did not issue for this key and range.
 * `pageSize` outside 1 to 1000 is 422; `page` is ignored when a cursor is set.
 */
export function parseEventsQuery(
  query: URLSearchParams,
  secret: Buffer,
  owner: string,
  nowMs: number,
): EventsQuery {
  const q = check(wireInput(query));
  if (q.cursor !== undefined) {
    const cursor = verifyCursor(secret, q.cursor);
    if (!cursor || cursor.owner !== owner) {
      throw new HttpProblem(422, NOT_OURS, [
        { path: 'cursor', message: 'was not returned by this API for this key' },
      ]);
    }
    if (
      (q.from !== undefined && Date.parse(q.from) !== cursor.fromMs) ||
      (q.to !== undefined && Date.parse(q.to) !== cursor.toMs)
    ) {
      throw new HttpProblem(
        422,
        'cursor belongs to another range: pass the same from and to as for the first page',
        [{ path: 'cursor', message: 'belongs to another range' }],
      );
    }
    return { fromMs: cursor.fromMs, toMs: cursor.toMs, pageSize: q.pageSize, page: cursor.page, cursor };
  }
  const range = check({ ...q, ...resolveRange(q.from, q.to, nowMs) });
  return {
    fromMs: Date.parse(range.from as string),
    toMs: Date.parse(range.to as string),
    pageSize: q.pageSize,
    page: q.page,
    cursor: undefined,
  };
}
