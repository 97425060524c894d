import { readFile } from 'node:fs/promises';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { AbortError } from '../../core/errors/error-classes.js';
import { localPath } from '../../node/audit-store/open-store.js';
import { syncAuditArchive } from '../../node/audit-sync/job.js';
import type { SyncOptions, SyncResult } from '../../node/audit-sync/options.js';
import { checkDistinctPaths } from '../../node/fs/distinct-paths.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditSyncOptions } from '../options/audit-sync-options.js';
import { parseDurationOption, parseIntOption, parseTimestampOption, UsageError } from '../usage-error.js';
import { retryForFlag } from './audit.js';
import { announceHead, runCode, runLine } from './audit-sync-report.js';
import { bucketSettings } from './bucket-settings.js';
import { continueCommand } from './continue-line.js';
import { withWayOn } from './gave-up.js';
import { parseFileMode } from './output-flags.js';

async function readKeyFile(path: string, option: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`${option}: cannot read ${path}`);
  }
}

/** The options every sync of this command shares, from the flags. */
async function syncOptions(ctx: CommandContext, flags: AuditSyncOptions): Promise<Omit<SyncOptions, 'dir'>> {
  const since = flags.since === undefined ? undefined : parseTimestampOption(flags.since, '--since');
  const pageSize =
    flags.pageSize === undefined ? undefined : parseIntOption(flags.pageSize, '--page-size', 1, 1000);
  const fileMode = parseFileMode(flags.fileMode);
  const signKey = flags.signKey === undefined ? undefined : await readKeyFile(flags.signKey, '--sign-key');
  return {
    ...(since !== undefined && { since }),
    lagMs: parseDurationOption(flags.lag, '--lag'),
    overlapMs: parseDurationOption(flags.overlap, '--overlap'),
    gzip: Boolean(flags.gzip),
    force: Boolean(flags.force),
    backfill: Boolean(flags.backfill),
    ...(fileMode !== undefined && { fileMode }),
    ...(signKey !== undefined && { signKey }),
    ...(pageSize !== undefined && { pageSize }),
    ...(flags.workDir !== undefined && { workDir: flags.workDir }),
    s3: bucketSettings(ctx, flags),
    retryForMs: retryForFlag(flags),
    onWarning: (line) => ctx.out.warn(line),
  };
}

/**
 * `svc audit sync --dir DIR`: one incremental run (or, with `--backfill`, the recorded gaps
 * fetched again). Prints the head on stdout. Exit 0 when written (or nothing new), 5 when written
 * but the archive is not whole (gaps, conflicts), 75 when interrupted (rerun to resume), 1 on
 * failure. With `--projects FILE`, every project of the file (see audit-sync-projects.ts).
 */
export async function auditSync(
  ctx: CommandContext,
  flags: AuditSyncOptions,
  command: CommandUnknownOpts,
): Promise<number> {
  if (flags.projects !== undefined) {
    if (flags.dir !== undefined)
      throw new UsageError('--dir and --projects exclude each other: the file names each directory');
    const { auditSyncProjects } = await import('./audit-sync-projects.js');
    return auditSyncProjects(
      ctx,
      flags.projects,
      flags.parallel,
      await syncOptions(ctx, flags),
      flags.signKey,
    );
  }
  if (flags.parallel !== undefined) throw new UsageError('--parallel goes with --projects');
  if (flags.dir === undefined || flags.dir.trim() === '')
    throw new UsageError('--dir must name a directory (or use --projects FILE)');
  const dir = flags.dir;
  // A private key inside the archive would be copied wherever the archive goes, or replaced by it.
  await checkDistinctPaths([
    { name: '--dir', path: localPath(dir), directory: true },
    { name: '--sign-key', path: flags.signKey },
  ]);
  const shared = await syncOptions(ctx, flags);
  const client = await ctx.client.get();
  let result: SyncResult;
  try {
    result = await syncAuditArchive(client.audit, { ...shared, dir, ...ctx.signals.abortable });
  } catch (error) {
    if (error instanceof AbortError && ctx.signals.signal?.aborted) {
      ctx.out.info(`interrupted: the run is saved in ${dir}; run the same command again to resume it`);
      return EXIT.INTERRUPTED;
    }
    throw withWayOn(
      error,
      () =>
        `the events fetched so far are kept in the run's work folder with its state; the same command continues the run: ${continueCommand(command)}`,
    );
  }
  ctx.out.info(runLine(result));
  await announceHead(ctx, dir, result);
  if (result.status === 'up-to-date') return EXIT.OK;
  if (result.status === 'backfilled') {
    const code = result.run === null ? EXIT.OK : runCode(ctx, result);
    return result.expired.length > 0 && code === EXIT.OK ? EXIT.INCOMPLETE : code;
  }
  return runCode(ctx, result);
}
