import { rm } from 'node:fs/promises';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { AbortError } from '../../core/errors/error-classes.js';
import type { ExportProgress, ExportResult } from '../../node/audit-export/export.js';
import { exportAuditEvents } from '../../node/audit-export/job.js';
import { isStreamPath } from '../../node/fs/output-file.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { AuditExportOptions } from '../options/audit-export-options.js';
import { startProgress } from '../progress.js';
import { parseIntOption, UsageError } from '../usage-error.js';
import { rangeFlags, retryForFlag } from './audit.js';
import { continueCommand } from './continue-line.js';
import { eventFormat } from './event-format.js';
import { withWayOn } from './gave-up.js';
import { parseFileMode, stdoutAlias } from './output-flags.js';

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function rate(events: number, ms: number): string {
  return `${Math.round(events / Math.max(ms / 1000, 0.001))} events/s`;
}

/** The shared spinner (see progress.ts), fed with export progress. */
async function progressReporter(ctx: CommandContext, started: number) {
  const spinner = await startProgress(ctx.io, ctx.settings, 'exporting audit events');
  return {
    update: (p: ExportProgress) => {
      const total = p.totalElements === null ? '' : ` of ${p.totalElements}`;
      spinner.update(
        () =>
          `exporting: ${p.events}${total} events, ${p.pages} pages, ${rate(p.events, Date.now() - started)}`,
      );
    },
    stop: () => spinner.stop(),
  };
}

/**
 * `svc audit export`: NDJSON (or gzip) of every event of the range, checkpointed after every
 * page. Interrupted by a signal it exits 75 with the state saved; the same command resumes.
 */
export async function auditExport(
  ctx: CommandContext,
  flags: AuditExportOptions,
  command: CommandUnknownOpts,
): Promise<number> {
  const range = rangeFlags(flags);
  const pageSize =
    flags.pageSize === undefined ? undefined : parseIntOption(flags.pageSize, '--page-size', 1, 1000);
  const outFlag = stdoutAlias(flags.out) ?? '-';
  const toStdout = outFlag === '-';
  if (!toStdout && outFlag.trim() === '') throw new UsageError('--out must name a file or be -');
  const fileMode = parseFileMode(flags.fileMode);
  // A device or FIFO (`--out /dev/stdout`) is written as a stream: nothing to resume, no state.
  const streamOut = toStdout || (await isStreamPath(outFlag));
  const statePath = flags.state ?? (streamOut ? undefined : `${outFlag}.state.json`);
  const where = toStdout ? 'stdout' : outFlag;
  const retryForMs = retryForFlag(flags);
  const { format, keepOriginal } = eventFormat(flags, true);
  const client = await ctx.client.get();
  const started = Date.now();
  const progress = await progressReporter(ctx, started);
  let result: ExportResult;
  let events = 0;
  try {
    result = await exportAuditEvents(client.audit, {
      ...range,
      ...(pageSize !== undefined && { pageSize }),
      output: toStdout ? ctx.out.dataOut : outFlag,
      ...(statePath !== undefined && { statePath }),
      gzip: Boolean(flags.gzip),
      format,
      keepOriginal,
      force: Boolean(flags.force),
      ...(fileMode !== undefined && { fileMode }),
      retryForMs,
      signal: ctx.signals.signal,
      onProgress: (p) => {
        events = p.events;
        progress?.update(p);
      },
    });
  } catch (error) {
    progress?.stop();
    if (error instanceof AbortError && ctx.signals.signal?.aborted) {
      if (!statePath) throw new AbortError('interrupted; nothing to resume from (no --state file)');
      ctx.out.info(`interrupted: state saved to ${statePath}; run the same command again to resume`);
      return EXIT.INTERRUPTED;
    }
    throw withWayOn(error, () =>
      statePath
        ? `${events} events kept in ${where}, state in ${statePath}; the same command continues from there: ${continueCommand(command)}`
        : `${events} events written to ${where}, nothing kept to continue from (use --out FILE)`,
    );
  }
  progress?.stop();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const fetched = result.resumed ? ' (resumed)' : '';
  if (result.alreadyComplete) {
    ctx.out.info(`export to ${where} was already complete: ${result.events} events; nothing fetched`);
  } else {
    ctx.out.info(
      `exported ${result.events} events${fetched} in ${result.pages} pages, ${megabytes(result.bytes)}, to ${where} ` +
        `in ${seconds} s (${rate(result.events - result.previousEvents, Date.now() - started)}); range ${result.from} to ${result.to}`,
    );
  }
  if (result.duplicatesDropped > 0) ctx.out.warn(`${result.duplicatesDropped} duplicate events were dropped`);
  if (statePath) await rm(statePath, { force: true });
  if (!result.countMatches) {
    ctx.out.warn(
      `wrote ${result.events} events but the first page reported totalElements ${result.totalElements}; the output may be incomplete`,
    );
    return EXIT.FAILURE;
  }
  return EXIT.OK;
}
