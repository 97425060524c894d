import type { AuditEvent } from '../../audit/schemas.js';
import { matchesAuditQuery } from '../../audit/search/match.js';
import type { AuditQuery } from '../../audit/search/query.js';
import type { ArchiveReadFooter } from '../../node/audit-search/footer.js';
import { searchAuditArchive } from '../../node/audit-search/job.js';
import type { CommandContext } from '../context.js';
import { rangeFlags, retryForFlag } from './audit.js';
import { type BucketFlags, bucketSettings } from './bucket-settings.js';

/** The flags of a command that reads events from an archive or the API (search, report). */
export interface EventSourceFlags extends BucketFlags {
  dir?: string;
  from?: string;
  to?: string;
  retryFor: string;
}

/** What a search or report says it read: the JSON footer, its lines, whether the range is whole. */
export interface SourceFooter {
  json: object;
  lines: string[];
  whole: boolean;
}

/** The matching events of a command's source, then what was read. */
export interface EventSource {
  matches: AsyncIterable<{ event: AuditEvent; line?: Buffer }>;
  /** What was read, once `matches` ended (or the reader stopped). */
  footer(): SourceFooter;
}

/** The lines of an archive's footer: what was read, and each reason the range is not whole. */
function archiveLines(footer: ArchiveReadFooter): string[] {
  const head = footer.head ? `head ${footer.head.manifest} sha256:${footer.head.sha256}` : 'no head';
  const range = footer.range ? `${footer.range.from} to ${footer.range.to}` : 'no range in the archive';
  const counts = `${footer.files} files, ${footer.events} events read, ${footer.matched} matched${footer.complete ? '' : ' (stopped at --limit)'}`;
  return [
    `read ${footer.archive}: ${head}; ${range}, ${footer.whole ? 'whole' : 'NOT whole'}; ${counts}`,
    ...footer.incomplete.map((reason) => `not whole: ${reason}`),
  ];
}

/**
 * The events of `--dir` (an archive, each file checked against its manifest: searchAuditArchive)
 * or of the API for `--from`/`--to`, those matching `query`.
 */
export async function auditEventSource(
  ctx: CommandContext,
  flags: EventSourceFlags,
  query: AuditQuery,
): Promise<EventSource> {
  const range = rangeFlags(flags);
  if (flags.dir !== undefined) {
    const search = searchAuditArchive(flags.dir, {
      query,
      ...range,
      s3: bucketSettings(ctx, flags),
      ...ctx.signals.abortable,
    });
    return {
      matches: search,
      footer: () => {
        const footer = search.footer as ArchiveReadFooter;
        return { json: footer, lines: archiveLines(footer), whole: footer.whole };
      },
    };
  }
  const client = await ctx.client.get();
  const events = client.audit.events(range, { signal: ctx.signals.signal, retryForMs: retryForFlag(flags) });
  const tally = { read: 0, matched: 0, complete: false };
  async function* matches() {
    for await (const event of events) {
      tally.read += 1;
      if (!matchesAuditQuery(query, event)) continue;
      tally.matched += 1;
      yield { event };
    }
    tally.complete = true;
  }
  return {
    matches: matches(),
    footer: () => {
      const asked = { from: range.from ?? null, to: range.to ?? null };
      const line = `read the API: ${asked.from ?? '24 hours before --to'} to ${asked.to ?? 'now'}; ${tally.read} events read, ${tally.matched} matched${tally.complete ? '' : ' (stopped at --limit)'} (no archive, so nothing was checked against manifests)`;
      return {
        json: {
          source: 'api',
          range: asked,
          events: tally.read,
          matched: tally.matched,
          complete: tally.complete,
        },
        lines: [line],
        whole: true,
      };
    },
  };
}

/** The footer on stderr: a whole range as information, one that is not whole as warnings (shown with --quiet too). */
export function sayFooter(ctx: CommandContext, footer: SourceFooter): void {
  for (const line of footer.lines) {
    if (footer.whole) ctx.out.info(line);
    else ctx.out.warn(line);
  }
}
