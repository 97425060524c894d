import { appendFile } from 'node:fs/promises';
import type { SyncResult } from '../../node/audit-sync/options.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';

// What `svc audit sync` prints of a run, for one directory or for each project of --projects.

/** Warnings for what a run found missing or odd; true when the archive is not whole. */
function reportHoles(ctx: CommandContext, result: SyncResult, prefix = ''): boolean {
  const gap = result.retentionGap;
  if (gap) {
    ctx.out.warn(
      `${prefix}retention gap: the API no longer returns events the archive ended with; events between ${gap.from} and ${gap.to} may have expired unarchived (recorded in ${result.manifest}; see svc audit gaps)`,
    );
  }
  for (const hole of result.lateEvents) {
    const missing = (hole.apiCount ?? 0) - (hole.archivedCount ?? 0);
    ctx.out.warn(
      `${prefix}${missing} late events between ${hole.from} and ${hole.to} arrived after the overlap and are not in the archive (recorded in ${result.manifest}); svc audit sync --backfill fetches them, a longer --overlap catches them`,
    );
  }
  if (result.outOfRange > 0)
    ctx.out.warn(
      `${prefix}the API returned ${result.outOfRange} events outside the range asked (${result.from} to ${result.to}): not archived, counted in ${result.manifest}`,
    );
  if (result.conflicts > 0)
    ctx.out.warn(
      `${prefix}${result.conflicts} events came with an id the archive holds but other content: kept in ${result.conflictsFile}, not in the data file`,
    );
  const push = result.push;
  const kept = push ? push.unconfirmed + push.differing : 0;
  if (push && kept > 0)
    ctx.out.warn(
      `${prefix}${kept} pushed events were not confirmed by the pull API (${push.unconfirmed} not returned, ${push.differing} returned with other content): kept in ${result.conflictsFile}, not in the data file`,
    );
  return gap !== null || result.lateEvents.length > 0 || result.conflicts > 0 || kept > 0;
}

/** The exit code of a finished run: 5 when not whole, 1 when the count did not match, else 0. */
export function runCode(ctx: CommandContext, result: SyncResult, prefix = ''): number {
  if (!result.countMatches && result.totalElements !== null) {
    ctx.out.warn(
      `${prefix}the API counted ${result.totalElements} events for the range, the archive holds ${result.events + result.alreadyArchived + result.conflicts}`,
    );
  }
  if (reportHoles(ctx, result, prefix)) return EXIT.INCOMPLETE;
  return result.countMatches ? EXIT.OK : EXIT.FAILURE;
}

/** The head line: printed on stdout and added to the GitHub step summary, the anchor outside the archive. */
export async function announceHead(
  ctx: CommandContext,
  dir: string,
  result: SyncResult,
  name?: string,
): Promise<void> {
  if (!result.head) return;
  const line = `head sha256:${result.head.sha256} ${result.head.manifest}${name ? ` ${name}` : ''}`;
  ctx.out.line(line);
  const summary = ctx.settings.env('GITHUB_STEP_SUMMARY');
  if (!summary) return;
  const entry = `- audit archive \`${dir}\`${name ? ` (${name})` : ''}: head \`sha256:${result.head.sha256}\` (${result.head.manifest})\n`;
  await appendFile(summary, entry).catch(() => ctx.out.warn('cannot append the head to GITHUB_STEP_SUMMARY'));
}

/** The one line that says what a run did. */
export function runLine(result: SyncResult): string {
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
  const push = result.push
    ? `; push spool: ${result.push.confirmed} of ${result.push.pushed} pushed events confirmed, ${result.push.fetched} fetched that the push missed, ${result.push.objects.length} spool objects reconciled${result.push.outside > 0 ? `, ${result.push.outside} older than the archive's start left out` : ''}`
    : '';
  return `run ${result.run}${resumed}: ${result.events} events to ${result.file} (${result.alreadyArchived} already archived), range ${result.from} to ${result.to}, manifest ${result.manifest}${acks}${push}`;
}
