import * as z from 'zod/mini';
import { meta, strictObject, wireSchema } from '../core/schema.js';

/**
 * Largest `pageSize` of the audit log. The reference says only "at most 1000": a larger value is
 * refused like 0 is (422 from the reference server, `LocalValidationError` in the client), never
 * silently served as 1000, so a caller never gets fewer events per page than it asked for unawares.
 */
export const MAX_PAGE_SIZE = 1000;
/** `pageSize` when none is given. */
export const DEFAULT_PAGE_SIZE = 100;
/** Length of the default range: `from` defaults to this long (24 hours) before `to`. */
const DEFAULT_RANGE_MS = 24 * 60 * 60 * 1000;

const TIMESTAMP_MESSAGE = 'must be an ISO 8601 UTC timestamp such as 2026-01-31T00:00:00Z';

/**
 * An ISO 8601 UTC timestamp with a zone (`Z` or `+hh:mm`), e.g. `2026-01-31T00:00:00Z`; fractions
 * allowed. Both the client and the reference server check `from` and `to` with it.
 */
export const AuditTimestamp = wireSchema(() => z.iso.datetime({ offset: true, error: TIMESTAMP_MESSAGE }));

/** Whether `from` does not lie after `to` (either may be missing). */
export function isOrderedRange(range: { from?: string | undefined; to?: string | undefined }): boolean {
  return !range.from || !range.to || Date.parse(range.from) <= Date.parse(range.to);
}

/** Message of the issue of a range that breaks {@link isOrderedRange}; its path is `from`. */
export const FROM_AFTER_TO = 'must not lie after to';

/** Refinement parameters of {@link isOrderedRange} (a new object each time: zod keeps and changes it). */
export function fromAfterTo(): { path: string[]; message: string } {
  return { path: ['from'], message: FROM_AFTER_TO };
}

/** Each query parameter of `GET /platform/v1/events` with its rule, default and meaning. */
const fields = wireSchema(() => ({
  from: meta(z.optional(AuditTimestamp()), {
    description: 'Start of the range; default 24 hours before `to`',
  }),
  to: meta(z.optional(AuditTimestamp()), { description: 'End of the range; default now' }),
  cursor: meta(z.optional(z.string().check(z.minLength(1, 'must be the nextCursor of a previous page'))), {
    description: '`nextCursor` of the previous page, sent with the same `from` and `to`',
  }),
  pageSize: meta(
    z._default(z.number().check(z.int()).check(z.gte(1)).check(z.lte(MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE),
    { description: `Events per page, at most ${MAX_PAGE_SIZE}` },
  ),
  page: meta(z._default(z.number().check(z.int()).check(z.gte(0)), 0), {
    description: 'Zero-based page index; ignored when `cursor` is set',
  }),
}));

/**
 * The query of `GET /platform/v1/events` as the API reads it, defaults applied (`pageSize` 100,
 * `page` 0). `from` and `to` stay optional: their defaults depend on the time of the request,
 * see `resolveRange`. The reference server and the OpenAPI document use this declaration.
 */
export const AuditEventsQuerySchema = wireSchema(() =>
  strictObject(fields()).check(z.refine(isOrderedRange, fromAfterTo())),
);
/**
 * The query of `GET /platform/v1/events` as the API reads it, defaults applied (`pageSize` 100,
 * `page` 0). `from` and `to` stay optional: their defaults depend on the time of the request,
 * see `resolveRange`. The reference server and the OpenAPI document use this declaration.
 */
export type AuditEventsQuery = z.output<ReturnType<typeof AuditEventsQuerySchema>>;

const ClientTimestamp = wireSchema(() =>
  z.union(
    [
      AuditTimestamp(),
      z.pipe(
        z.date(),
        z.transform((d: Date) => d.toISOString()),
      ),
    ],
    {
      error: TIMESTAMP_MESSAGE,
    },
  ),
);

/**
 * Query of `client.audit.listEvents` (strict: checked before sending): {@link AuditEventsQuery}
 * with `from` and `to` also as `Date`, and no default filled in, so only what is given is sent.
 *
 * - `from`: start of the range; default 24 hours before `to`.
 * - `to`: end of the range; default now.
 * - `cursor`: the `nextCursor` of the previous page (with the same `from` and `to`).
 * - `pageSize`: 1 to 1000, default 100.
 * - `page`: zero-based, default 0; ignored when `cursor` is set.
 */
export const ListEventsParamsSchema = wireSchema(() =>
  z
    .strictObject({
      ...fields(),
      from: z.optional(ClientTimestamp()),
      to: z.optional(ClientTimestamp()),
      pageSize: z.optional(fields().pageSize.def.innerType),
      page: z.optional(fields().page.def.innerType),
    })
    .check(z.refine(isOrderedRange, fromAfterTo())),
);
/** Input type of {@link ListEventsParams}: timestamps as ISO strings or `Date`s. */
export type ListEventsParams = z.input<ReturnType<typeof ListEventsParamsSchema>>;

/**
 * The range a query reads: `to` defaults to `now`, `from` to {@link DEFAULT_RANGE_MS} before `to`.
 * The one place the default range is computed: the client fixes it before paging so it does not
 * move, the reference server applies it to each request with its own clock.
 */
export function resolveRange(
  from: string | undefined,
  to: string | undefined,
  now: number = Date.now(),
): { from: string; to: string } {
  const toValue = to ?? new Date(now).toISOString();
  return { from: from ?? new Date(Date.parse(toValue) - DEFAULT_RANGE_MS).toISOString(), to: toValue };
}
