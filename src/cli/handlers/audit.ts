import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { isOrderedRange } from '../../audit/query.js';
import { EVENT_TABLE_COLUMNS, eventTableRow } from '../../audit/search/columns.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditListOptions } from '../options/audit-list-options.js';
import type { AuditTailOptions } from '../options/audit-tail-options.js';
import { jsonForTerminal } from '../terminal-safe.js';
import { parseDurationOption, parseIntOption, parseTimestampOption, UsageError } from '../usage-error.js';
import { continueCommand } from './continue-line.js';
import { withWayOn } from './gave-up.js';

/** Parses a duration in seconds (fractions allowed) into milliseconds. */
export function parseSecondsOption(value: string, option: string): number {
  if (!/^\d+(\.\d+)?$/.test(value.trim()))
    throw new UsageError(`${option} must be a number of seconds, got '${value}'`);
  return Math.round(Number(value.trim()) * 1000);
}

/** `--from`/`--to` checked locally, so a typo never reaches the server. */
export function rangeFlags(flags: { from?: string; to?: string }): { from?: string; to?: string } {
  const from = flags.from === undefined ? undefined : parseTimestampOption(flags.from, '--from');
  const to = flags.to === undefined ? undefined : parseTimestampOption(flags.to, '--to');
  if (!isOrderedRange({ from, to })) {
    throw new UsageError(`--from (${from}) lies after --to (${to})`);
  }
  return { ...(from && { from }), ...(to && { to }) };
}

/** `--retry-for`: how long a throttled or failing read is retried past --max-retries, ms. */
export const retryForFlag = (flags: { retryFor: string }) =>
  parseDurationOption(flags.retryFor, '--retry-for');

/** `svc audit list`: one page. */
export async function auditList(
  ctx: CommandContext,
  flags: AuditListOptions,
  command: CommandUnknownOpts,
): Promise<number> {
  const params = {
    ...rangeFlags(flags),
    ...(flags.page !== undefined && { page: parseIntOption(flags.page, '--page') }),
    ...(flags.pageSize !== undefined && { pageSize: parseIntOption(flags.pageSize, '--page-size', 1, 1000) }),
    ...(flags.cursor !== undefined && { cursor: flags.cursor }),
  };
  const retryForMs = retryForFlag(flags);
  const client = await ctx.client.get();
  const page = await client.audit
    .listEvents(params, { signal: ctx.signals.signal, retryForMs })
    .catch((error: unknown) => {
      throw withWayOn(error, () => `nothing printed; ask again with: ${continueCommand(command)}`);
    });
  await ctx.out.print(ctx.settings.format === 'ndjson' ? page.content : page, () => ({
    head: [...EVENT_TABLE_COLUMNS],
    rows: page.content.map(eventTableRow),
  }));
  ctx.out.info(
    `page ${page.page}: ${page.content.length} of ${page.totalElements} events from ${page.from} to ${page.to}` +
      (page.nextCursor ? `; next page: --cursor ${page.nextCursor}` : '; last page'),
  );
  return EXIT.OK;
}

/** The shortest `--interval` of `svc audit tail`, ms: shorter would poll the service non-stop. */
const MIN_TAIL_INTERVAL_MS = 1000;

/** `svc audit tail`: polls and prints new events, oldest first, as NDJSON until interrupted. */
export async function auditTail(
  ctx: CommandContext,
  flags: AuditTailOptions,
  command: CommandUnknownOpts,
): Promise<number> {
  const options = {
    intervalMs: parseSecondsOption(flags.interval, '--interval'),
    overlapMs: parseSecondsOption(flags.overlap, '--overlap'),
    ...(flags.since !== undefined && { since: parseTimestampOption(flags.since, '--since') }),
    ...(flags.pageSize !== undefined && { pageSize: parseIntOption(flags.pageSize, '--page-size', 1, 1000) }),
    ...(flags.maxPolls !== undefined && { maxPolls: parseIntOption(flags.maxPolls, '--max-polls') }),
    retryForMs: retryForFlag(flags),
    signal: ctx.signals.signal,
  };
  if (options.intervalMs < MIN_TAIL_INTERVAL_MS) {
    throw new UsageError(
      `--interval must be at least ${MIN_TAIL_INTERVAL_MS / 1000} s, got ${flags.interval} (a shorter pause polls the service non-stop)`,
    );
  }
  const client = await ctx.client.get();
  ctx.out.info(`following the audit log every ${options.intervalMs / 1000} s; stop with Ctrl-C`);
  let printed = 0;
  let last: string | undefined;
  try {
    for await (const event of client.audit.tail(options)) {
      await ctx.out.data(`${jsonForTerminal(event)}\n`);
      printed += 1;
      last = event.occurredAt;
    }
  } catch (error) {
    // Events come oldest first: from the last one printed, --since repeats none that --overlap would not.
    throw withWayOn(error, () =>
      last === undefined
        ? `no event printed; follow again with: ${continueCommand(command)}`
        : `${printed} events printed, the last of ${last}; go on from there with: ${continueCommand(command, { drop: ['--since'], add: ['--since', last] })}`,
    );
  }
  return EXIT.OK;
}
