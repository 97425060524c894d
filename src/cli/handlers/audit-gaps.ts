import { acknowledgeAuditGap, listAuditGaps } from '../../node/audit-archive/functions.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditGapsAckOptions, AuditGapsOptions } from '../options/audit-gaps-options.js';
import { jsonForTerminal } from '../terminal-safe.js';
import { UsageError } from '../usage-error.js';
import { bucketSettings } from './bucket-settings.js';

function dirFlag(flags: { dir?: string }): string {
  if (flags.dir === undefined || flags.dir.trim() === '')
    throw new UsageError('--dir must name the archive: a directory or s3://BUCKET/PREFIX');
  return flags.dir;
}

/**
 * `svc audit gaps --dir DIR`: one line per gap (id, status, cause, range, events, whether the API
 * may still hold them), or with `-o json` the list as JSON. Exit 0 when no gap is open, 5 when
 * some are (repair with `sync --backfill` or acknowledge with `gaps ack`), 2 when DIR holds no
 * archive, 1 when a manifest or the sync state cannot be read (one line naming it).
 */
export async function auditGaps(ctx: CommandContext, flags: AuditGapsOptions): Promise<number> {
  const dir = dirFlag(flags);
  const json = ctx.settings.format === 'json' && ctx.settings.flags.output === 'json';
  // No archive at DIR is a usage error (2); an archive that cannot be read is a failure (1).
  const { gaps, pendingAcks, leftovers } = await listAuditGaps(dir, {
    s3: bucketSettings(ctx, flags),
    ...ctx.signals.abortable,
  }).catch((error: Error & { code?: string }) => {
    throw error.code === 'config' ? new UsageError(error.message) : error;
  });
  if (json) await ctx.out.data(`${jsonForTerminal({ gaps, pendingAcks, leftovers }, 2)}\n`);
  else {
    for (const gap of gaps) {
      // A conflict is nothing missing: both copies are in the archive, one of them kept apart.
      const held =
        gap.status !== 'open'
          ? ''
          : gap.cause === 'conflict'
            ? ` kept apart in ${gap.file}: review them, then svc audit gaps ack ${gap.id}`
            : gap.mayStillHold
              ? ', the API may still hold them'
              : ', the API no longer holds them';
      const by = gap.resolvedBy ? ` by ${gap.resolvedBy}` : '';
      const pending = pendingAcks.some((ack) => ack.gap === gap.id)
        ? ' (acknowledged: recorded by the next run)'
        : '';
      ctx.out.line(
        `${gap.id} ${gap.status}${by}${pending}: ${gap.cause}, ${gap.from} to ${gap.to}, ${gap.events ?? 'unknown'} events${held}`,
      );
    }
  }
  const open = gaps.filter((gap) => gap.status === 'open');
  ctx.out.info(`${gaps.length} gaps recorded, ${open.length} open`);
  if (leftovers.length > 0)
    ctx.out.info(
      `housekeeping: ${leftovers.length} left by interrupted runs, not part of the archive (the next sync removes them): ${leftovers.join(', ')}`,
    );
  return open.length === 0 ? EXIT.OK : EXIT.INCOMPLETE;
}

/** `svc audit gaps ack GAP --reason TEXT --dir DIR`: recorded in the next run's manifest. Exit 0, or 2 for an unknown gap. */
export async function auditGapsAck(
  ctx: CommandContext,
  gap: string,
  flags: AuditGapsAckOptions,
  command?: { parent?: { opts(): { dir?: string } } | null },
): Promise<number> {
  // `--dir` after `ack` is parsed by `gaps`, which takes the same option.
  const dir = dirFlag({ dir: flags.dir ?? command?.parent?.opts().dir });
  const found = await acknowledgeAuditGap(dir, gap, flags.reason, Date.now, {
    s3: bucketSettings(ctx, flags),
  }).catch((error: Error & { code?: string }) => {
    throw error.code === 'config' ? new UsageError(error.message) : error;
  });
  ctx.out.info(
    `gap ${found.id} (${found.from} to ${found.to}) acknowledged; the next sync run records it in its manifest`,
  );
  return EXIT.OK;
}
