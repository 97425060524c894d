import { readFile } from 'node:fs/promises';
import type { SyncResult } from '../../audit/sync-options.js';
import { checkDistinctPaths } from '../../core/distinct-paths.js';
import { AbortError } from '../../core/errors/abort-error.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { parseDurationOption, parseIntOption, parseTimestampOption, UsageError } from '../usage-error.js';
import { parseFileMode } from './output-flags.js';

interface SyncFlags {
  dir: string;
  since?: string;
  lag: string;
  overlap: string;
  gzip?: boolean;
  signKey?: string;
  pageSize?: string;
  force?: boolean;
  fileMode?: string;
}

async function readKeyFile(path: string, option: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`${option}: cannot read ${path}`);
  }
}

function reportHoles(ctx: CommandContext, result: SyncResult): boolean {
  const gap = result.retentionGap;
  if (gap) {
    ctx.warn(
      `retention gap: the API no longer returns events the archive ended with; events between ${gap.from} and ${gap.to} may have expired unarchived (recorded in ${result.manifest})`,
    );
  }
  for (const hole of result.lateEvents) {
    const missing = (hole.apiCount ?? 0) - (hole.archivedCount ?? 0);
    ctx.warn(
      `${missing} late events between ${hole.from} and ${hole.to} arrived after the overlap and are not in the archive (recorded in ${result.manifest}); a longer --overlap catches them`,
    );
  }
  return gap !== null || result.lateEvents.length > 0;
}

/**
 * `svc audit sync --dir DIR`: one incremental run. Exit 0 when written (or nothing new), 5 when
 * written but the archive is not whole, 75 when interrupted (rerun to resume), 1 on failure.
 */
export async function auditSync(ctx: CommandContext, options: unknown): Promise<number> {
  const flags = options as SyncFlags;
  if (flags.dir.trim() === '') throw new UsageError('--dir must name a directory');
  const since = flags.since === undefined ? undefined : parseTimestampOption(flags.since, '--since');
  const lagMs = parseDurationOption(flags.lag, '--lag');
  const overlapMs = parseDurationOption(flags.overlap, '--overlap');
  const pageSize =
    flags.pageSize === undefined ? undefined : parseIntOption(flags.pageSize, '--page-size', 1, 1000);
  const fileMode = parseFileMode(flags.fileMode);
  // A private key inside the archive would be copied wherever the archive goes, or replaced by it.
  await checkDistinctPaths([
    { name: '--dir', path: flags.dir, directory: true },
    { name: '--sign-key', path: flags.signKey },
  ]);
  const signKey = flags.signKey === undefined ? undefined : await readKeyFile(flags.signKey, '--sign-key');
  const client = await ctx.client();
  let result: SyncResult;
  try {
    result = await client.audit.sync({
      dir: flags.dir,
      ...(since !== undefined && { since }),
      lagMs,
      overlapMs,
      gzip: Boolean(flags.gzip),
      force: Boolean(flags.force),
      ...(fileMode !== undefined && { fileMode }),
      ...(signKey !== undefined && { signKey }),
      ...(pageSize !== undefined && { pageSize }),
      ...(ctx.io.signal && { signal: ctx.io.signal }),
    });
  } catch (error) {
    if (error instanceof AbortError && ctx.io.signal?.aborted) {
      ctx.info(`interrupted: the run is saved in ${flags.dir}; run the same command again to resume it`);
      return EXIT.INTERRUPTED;
    }
    throw error;
  }
  if (result.status === 'up-to-date') {
    ctx.info(
      `nothing to sync yet: the next run starts at ${result.from}; server now ${result.serverNow} (minus --lag)`,
    );
    return EXIT.OK;
  }
  const resumed = result.resumed ? ' (resumed)' : '';
  ctx.info(
    `run ${result.run}${resumed}: ${result.events} events to ${result.file} (${result.alreadyArchived} already archived), range ${result.from} to ${result.to}, manifest ${result.manifest}`,
  );
  if (!result.countMatches) {
    ctx.warn(
      `the API counted ${result.totalElements} events for the range, the archive holds ${result.events + result.alreadyArchived}`,
    );
  }
  if (reportHoles(ctx, result)) return EXIT.INCOMPLETE;
  return result.countMatches ? EXIT.OK : EXIT.FAILURE;
}
