import { isOrderedRange } from '../../audit/query.js';
import type { AuditEvent } from '../../audit/schemas.js';
import type { CommandContext } from '../context.js';
import type { AuditListOptions, AuditTailOptions } from '../definitions/audit.js';
import { EXIT } from '../exit-codes.js';
import { jsonForTerminal } from '../terminal-safe.js';
import { parseIntOption, parseTimestampOption, UsageError } from '../usage-error.js';

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

/** How an actor reads in a table: type plus what identifies it. */
export function actorLabel(actor: AuditEvent['actor']): string {
  const a = actor as Record<string, unknown>;
  const automation = a.automation as { kind?: unknown; name?: unknown } | null | undefined;
  if (a.type === 'AUTOMATION' && automation) return `AUTOMATION ${automation.kind}/${automation.name}`;
  const id = a.userId ?? a.apiKeyId;
  return typeof id === 'string' ? `${actor.type} ${id}` : actor.type;
}

/** `svc audit list`: one page. */
export async function auditList(ctx: CommandContext, flags: AuditListOptions): Promise<number> {
  const params = {
    ...rangeFlags(flags),
    ...(flags.page !== undefined && { page: parseIntOption(flags.page, '--page') }),
    ...(flags.pageSize !== undefined && { pageSize: parseIntOption(flags.pageSize, '--page-size', 1, 1000) }),
    ...(flags.cursor !== undefined && { cursor: flags.cursor }),
  };
  const client = await ctx.client.get();
  const page = await client.audit.listEvents(params, { signal: ctx.signals.signal });
  await ctx.out.print(ctx.settings.format === 'ndjson' ? page.content : page, () => ({
    head: ['id', 'occurredAt', 'type', 'actor', 'subject'],
    rows: page.content.map((e) => [
      e.id,
      e.occurredAt,
      e.type,
      actorLabel(e.actor),
      e.subject?.label ?? e.subject?.id ?? '',
    ]),
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
export async function auditTail(ctx: CommandContext, flags: AuditTailOptions): Promise<number> {
  const options = {
    intervalMs: parseSecondsOption(flags.interval, '--interval'),
    overlapMs: parseSecondsOption(flags.overlap, '--overlap'),
    ...(flags.since !== undefined && { since: parseTimestampOption(flags.since, '--since') }),
    ...(flags.pageSize !== undefined && { pageSize: parseIntOption(flags.pageSize, '--page-size', 1, 1000) }),
    ...(flags.maxPolls !== undefined && { maxPolls: parseIntOption(flags.maxPolls, '--max-polls') }),
    signal: ctx.signals.signal,
  };
  if (options.intervalMs < MIN_TAIL_INTERVAL_MS) {
    throw new UsageError(
      `--interval must be at least ${MIN_TAIL_INTERVAL_MS / 1000} s, got ${flags.interval} (a shorter pause polls the service non-stop)`,
    );
  }
  const client = await ctx.client.get();
  ctx.out.info(`following the audit log every ${options.intervalMs / 1000} s; stop with Ctrl-C`);
  for await (const event of client.audit.tail(options)) await ctx.out.data(`${jsonForTerminal(event)}\n`);
  return EXIT.OK;
}
