import { appendFile, readFile } from 'node:fs/promises';
import type { SyncOptions, SyncResult } from '../../audit/sync-options.js';
import { checkDistinctPaths } from '../../core/distinct-paths.js';
import { AbortError } from '../../core/errors/error-classes.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { parseDurationOption, parseIntOption, parseTimestampOption, UsageError } from '../usage-error.js';
import { parseFileMode } from './output-flags.js';

interface SyncFlags {
  dir?: string;
  projects?: string;
  parallel?: string;
  backfill?: boolean;
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

/** Warnings for what a run found missing or odd; true when the archive is not whole. */
function reportHoles(ctx: CommandContext, result: SyncResult, prefix = ''): boolean {
  const gap = result.retentionGap;
  if (gap) {
    ctx.warn(
      `${prefix}retention gap: the API no longer returns events the archive ended with; events between ${gap.from} and ${gap.to} may have expired unarchived (recorded in ${result.manifest}; see svc audit gaps)`,
    );
  }
  for (const hole of result.lateEvents) {
    const missing = (hole.apiCount ?? 0) - (hole.archivedCount ?? 0);
    ctx.warn(
      `${prefix}${missing} late events between ${hole.from} and ${hole.to} arrived after the overlap and are not in the archive (recorded in ${result.manifest}); svc audit sync --backfill fetches them, a longer --overlap catches them`,
    );
  }
  if (result.outOfRange > 0)
    ctx.warn(
      `${prefix}the API returned ${result.outOfRange} events outside the range asked (${result.from} to ${result.to}): not archived, counted in ${result.manifest}`,
    );
  if (result.conflicts > 0)
    ctx.warn(
      `${prefix}${result.conflicts} events came with an id the archive holds but other content: kept in ${result.conflictsFile}, not in the data file`,
    );
  return gap !== null || result.lateEvents.length > 0 || result.conflicts > 0;
}

/** The exit code of a finished run: 5 when not whole, 1 when the count did not match, else 0. */
function runCode(ctx: CommandContext, result: SyncResult, prefix = ''): number {
  if (!result.countMatches && result.totalElements !== null) {
    ctx.warn(
      `${prefix}the API counted ${result.totalElements} events for the range, the archive holds ${result.events + result.alreadyArchived + result.conflicts}`,
    );
  }
  if (reportHoles(ctx, result, prefix)) return EXIT.INCOMPLETE;
  return result.countMatches ? EXIT.OK : EXIT.FAILURE;
}

/** The head line: printed on stdout and added to the GitHub step summary, the anchor outside the archive. */
async function announceHead(
  ctx: CommandContext,
  dir: string,
  result: SyncResult,
  name?: string,
): Promise<void> {
  if (!result.head) return;
  const line = `head sha256:${result.head.sha256} ${result.head.manifest}${name ? ` ${name}` : ''}`;
  ctx.line(line);
  const summary = ctx.io.env.GITHUB_STEP_SUMMARY;
  if (!summary) return;
  const entry = `- audit archive \`${dir}\`${name ? ` (${name})` : ''}: head \`sha256:${result.head.sha256}\` (${result.head.manifest})\n`;
  await appendFile(summary, entry).catch(() => ctx.warn('cannot append the head to GITHUB_STEP_SUMMARY'));
}

/** The one line that says what a run did. */
function runLine(result: SyncResult): string {
  if (result.status === 'backfilled') {
    const expired = result.expired.length
      ? `; no longer held by the API (acknowledge with svc audit gaps ack): ${result.expired.join(', ')}`
      : '';
    return result.repaired.length
      ? `backfill: repaired ${result.repaired.join(', ')}, last run ${result.run} (${result.events} events to ${result.file})${expired}`
      : `backfill: no gap the API still holds to repair${expired}`;
  }
  if (result.status === 'up-to-date')
    return `nothing to sync yet: the next run starts at ${result.from}; server now ${result.serverNow} (minus --lag)`;
  const resumed = result.resumed ? ' (resumed)' : '';
  const acks = result.acknowledged.length ? `; acknowledged ${result.acknowledged.join(', ')}` : '';
  return `run ${result.run}${resumed}: ${result.events} events to ${result.file} (${result.alreadyArchived} already archived), range ${result.from} to ${result.to}, manifest ${result.manifest}${acks}`;
}

/** The options every sync of this command shares, from the flags. */
async function syncOptions(flags: SyncFlags): Promise<Omit<SyncOptions, 'dir'>> {
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
  };
}

/**
 * `svc audit sync --dir DIR`: one incremental run (or, with `--backfill`, the recorded gaps
 * fetched again). Prints the head on stdout. Exit 0 when written (or nothing new), 5 when written
 * but the archive is not whole (gaps, conflicts), 75 when interrupted (rerun to resume), 1 on
 * failure. With `--projects FILE`, every project of the file (see audit-sync-projects.ts).
 */
export async function auditSync(ctx: CommandContext, options: unknown): Promise<number> {
  const flags = options as SyncFlags;
  if (flags.projects !== undefined) {
    if (flags.dir !== undefined)
      throw new UsageError('--dir and --projects exclude each other: the file names each directory');
    const { auditSyncProjects } = await import('./audit-sync-projects.js');
    const reporting = { runLine, runCode, announceHead };
    return auditSyncProjects(
      ctx,
      flags.projects,
      flags.parallel,
      await syncOptions(flags),
      reporting,
      flags.signKey,
    );
  }
  if (flags.parallel !== undefined) throw new UsageError('--parallel goes with --projects');
  if (flags.dir === undefined || flags.dir.trim() === '')
    throw new UsageError('--dir must name a directory (or use --projects FILE)');
  const dir = flags.dir;
  // A private key inside the archive would be copied wherever the archive goes, or replaced by it.
  await checkDistinctPaths([
    { name: '--dir', path: dir, directory: true },
    { name: '--sign-key', path: flags.signKey },
  ]);
  const shared = await syncOptions(flags);
  const client = await ctx.client();
  let result: SyncResult;
  try {
    result = await client.audit.sync({ ...shared, dir, ...(ctx.io.signal && { signal: ctx.io.signal }) });
  } catch (error) {
    if (error instanceof AbortError && ctx.io.signal?.aborted) {
      ctx.info(`interrupted: the run is saved in ${dir}; run the same command again to resume it`);
      return EXIT.INTERRUPTED;
    }
    throw error;
  }
  ctx.info(runLine(result));
  await announceHead(ctx, dir, result);
  if (result.status === 'up-to-date') return EXIT.OK;
  if (result.status === 'backfilled') {
    const code = result.run === null ? EXIT.OK : runCode(ctx, result);
    return result.expired.length > 0 && code === EXIT.OK ? EXIT.INCOMPLETE : code;
  }
  return runCode(ctx, result);
}

/** What the many-project command reuses of the single one. */
export interface RunReporting {
  runLine: typeof runLine;
  runCode: typeof runCode;
  announceHead: typeof announceHead;
}
