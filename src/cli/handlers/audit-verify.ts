import { readFile } from 'node:fs/promises';
import { verifyAuditArchive } from '../../node/audit-archive/verify.js';
import type { VerifyArchiveResult } from '../../node/audit-archive/verify-result.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditVerifyOptions } from '../options/audit-verify-options.js';
import { jsonForTerminal } from '../terminal-safe.js';
import { parseDurationOption, parseIntOption, UsageError } from '../usage-error.js';
import { bucketSettings } from './bucket-settings.js';

/** What a run of verify says on stderr after the problems: coverage, gaps resolved, the head. */
function summary(ctx: CommandContext, result: VerifyArchiveResult, signed: boolean): void {
  const first = result.chain.find((run) => run.kind === 'run');
  const last = result.head;
  if (first && last) ctx.out.info(`covers ${first.from} to ${last.to}`);
  for (const hole of result.holes)
    ctx.out.info(`hole: nothing covers ${hole.from} to ${hole.to} (before ${hole.after})`);
  for (const gap of result.gaps) {
    if (gap.status === 'repaired')
      ctx.out.info(`gap ${gap.id} (${gap.from} to ${gap.to}) repaired by ${gap.resolvedBy}`);
    if (gap.status === 'acknowledged')
      ctx.out.info(
        `gap ${gap.id} (${gap.from} to ${gap.to}) acknowledged in ${gap.resolvedBy}: ${gap.reason}`,
      );
  }
  if (last) ctx.out.info(`head ${last.manifest} sha256:${last.sha256}`);
  if (result.ok) {
    ctx.out.info(
      `archive whole: ${result.runs} runs, ${result.events} events${signed ? ', every manifest signed' : ''}`,
    );
  } else {
    ctx.out.info(`archive not whole: ${result.problems.length} problems in ${result.runs} runs`);
  }
}

/**
 * `svc audit verify DIR`: one line per problem on stdout (or, with `-o json`, the whole result as
 * one JSON object); exit 0 only when the archive is whole, 1 when any problem was found or a file
 * cannot be read, 2 on a usage error, 130 when interrupted.
 */
export async function auditVerify(
  ctx: CommandContext,
  dir: string,
  flags: AuditVerifyOptions,
): Promise<number> {
  // Plain lines unless JSON is asked for with -o (held to the output contract either way).
  const json = ctx.settings.format === 'json' && ctx.settings.flags.output === 'json';
  const maxAgeMs = flags.maxAge === undefined ? undefined : parseDurationOption(flags.maxAge, '--max-age');
  const head = flags.head
    ?.trim()
    .toLowerCase()
    .replace(/^sha256:/, '');
  if (head !== undefined && !/^[0-9a-f]{64}$/.test(head))
    throw new UsageError(`--head must be the sha256 a sync printed (64 hex digits), got '${flags.head}'`);
  let publicKey: string | undefined;
  if (flags.publicKey !== undefined) {
    try {
      publicKey = await readFile(flags.publicKey, 'utf8');
    } catch {
      throw new UsageError(`--public-key: cannot read ${flags.publicKey}`);
    }
  }
  const retention = flags.requireRetention;
  const result = await verifyAuditArchive(String(dir), {
    ...(publicKey !== undefined && { publicKey }),
    ...(retention !== undefined && {
      requireRetention:
        retention === true ? {} : { days: parseIntOption(retention, '--require-retention', 1, 36_500) },
    }),
    s3: bucketSettings(ctx, flags),
    ...(maxAgeMs !== undefined && { maxAgeMs }),
    ...(head !== undefined && { head }),
    ...ctx.signals.abortable,
  });
  if (json) await ctx.out.data(`${jsonForTerminal(result, 2)}\n`);
  else for (const problem of result.problems) ctx.out.line(problem.message);
  summary(ctx, result, publicKey !== undefined);
  return result.ok ? EXIT.OK : EXIT.FAILURE;
}
