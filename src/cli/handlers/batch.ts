import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import {
  BatchFileFailedError,
  BatchFileStoppedError,
  BatchInterruptedError,
} from '../../node/batch-file/errors.js';
import { runBatchFile } from '../../node/batch-file/job.js';
import type {
  BatchFileInputOptions,
  BatchFileOptions,
  BatchFileResult,
} from '../../node/batch-file/options.js';
import { keepOldGenerationTight } from '../bulk-memory.js';
import type { CommandContext } from '../context.js';
import { parseDelimiter } from '../csv-options.js';
import { EXIT } from '../exit-codes.js';
import type { BatchOptions } from '../options/batch-options.js';
import { startProgress } from '../progress.js';
import { parseDurationOption, parseIntOption, UsageError } from '../usage-error.js';
import { batchProgress } from './batch-progress.js';
import { continueCommand } from './continue-line.js';
import { parseFileMode, stdoutAlias } from './output-flags.js';
import { precheckMode } from './tax-params.js';

/** `--columns countryCode=Land,rawValue=USt-IdNr`: request field -> column name. */
export function parseColumns(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const pair of value.split(',')) {
    const at = pair.indexOf('=');
    const field = pair.slice(0, at).trim();
    const column = pair.slice(at + 1).trim();
    if (at === -1 || !field || !column)
      throw new UsageError(`--columns takes field=column pairs separated by commas, got '${pair}'`);
    if (Object.hasOwn(out, field)) throw new UsageError(`--columns maps ${field} twice`);
    out[field] = column;
  }
  return out;
}

function parseListen(value: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(value);
  if (!match) throw new UsageError(`--listen takes HOST:PORT, got '${value}'`);
  return {
    host: (match[1] as string).replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: parseIntOption(match[2] as string, '--listen port', 0, 65535),
  };
}

/** The flags, checked and turned into the library's option groups (all but the input and output paths, `wait` and the callbacks). */
function runOptions(flags: BatchOptions) {
  // Checked in this order, so that of several bad flags the same one is named as always.
  const chunkSize = parseIntOption(flags.chunkSize, '--chunk-size', 1, 1000);
  const concurrency = parseIntOption(flags.concurrency, '--concurrency', 1, 64);
  const retryForMs = parseDurationOption(flags.retryFor, '--retry-for');
  const waitTimeoutMs = parseIntOption(flags.waitTimeout, '--wait-timeout', 1) * 1000;
  const quietMs = parseIntOption(flags.reconcileAfter, '--reconcile-after', 0, 86_400) * 1000;
  const precheck = precheckMode(flags.precheck);
  const listen = parseListen(flags.listen);
  const fileMode = parseFileMode(flags.fileMode);
  const delimiter = parseDelimiter(flags.delimiter);
  const columns = parseColumns(flags.columns);
  const options = {
    input: { encoding: flags.encoding, sheet: flags.sheet, ...(columns && { columns }) },
    output: {
      ...(delimiter && { delimiter }),
      ...(flags.bom !== undefined && { bom: flags.bom }),
      rejects: flags.rejects,
      ...(fileMode !== undefined && { fileMode }),
    },
    resume: { state: flags.state, continue: flags.resume, force: flags.force },
    send: { runId: flags.runId, strategy: flags.strategy, chunkSize, concurrency, retryForMs, precheck },
  } satisfies Omit<BatchFileOptions, 'input'> & { input: Omit<BatchFileInputOptions, 'path'> };
  return { options, listen, waitTimeoutMs, quietMs };
}

/** `svc batch <file.csv | ->`: validates every row of a CSV, resumably, exactly once (`runBatchFile`). */
export async function batch(
  ctx: CommandContext,
  file: string,
  flags: BatchOptions,
  command: CommandUnknownOpts,
): Promise<number> {
  const { options, listen, waitTimeoutMs, quietMs } = runOptions(flags);
  const out = stdoutAlias(flags.out) === '-' ? undefined : flags.out;
  const statePath = flags.state ?? (out ? `${out}.state.json` : undefined);
  if (flags.resume && !statePath) throw new UsageError('--resume needs --out FILE (or --state FILE)');
  if (flags.resume && !out)
    throw new UsageError('--resume needs --out FILE: the output is continued where it stopped');

  // Workbooks and --wait runs (webhook POSTs, confirmations and, with --sandbox, the server's own
  // requests in this process) leave more garbage that lives just long enough to be promoted.
  const workbook = [file, out].some((name) => typeof name === 'string' && /\.xlsx$/i.test(name));
  await keepOldGenerationTight(flags.wait || workbook ? 30 : 100);
  const client = await ctx.client.get();
  const sandbox = flags.wait ? await ctx.client.sandbox() : undefined;
  const progress = await startProgress(ctx.io, ctx.settings, 'batch: starting');
  let result: BatchFileResult;
  try {
    result = await runBatchFile(client.tax, {
      ...options,
      input: { ...options.input, path: file === '-' ? ctx.io.stdin : String(file) },
      output: {
        ...options.output,
        path: out ?? ctx.out.dataOut,
        format: ctx.settings.format === 'csv' ? 'csv' : 'ndjson',
      },
      wait: flags.wait && {
        ...listen,
        timeoutMs: waitTimeoutMs,
        quietMs,
        register: sandbox ? (url) => sandbox.admin.addWebhookEndpoint(url) : flags.register,
      },
      signal: ctx.signals.signal,
      onProgress: batchProgress(ctx, progress, { waitTimeoutMs, quietMs }),
    });
  } catch (error) {
    progress.stop();
    return stopped(ctx, error);
  }
  progress.stop();
  return summary(ctx, { flags, out, command }, result, waitTimeoutMs);
}

/** What the summary says of a run: its flags and output, and the command as given. */
interface Ran {
  flags: BatchOptions;
  out: string | undefined;
  command: CommandUnknownOpts;
}

/** `svc batch ... --resume`: the command as given (its input, outputs, columns, key seed), resuming. */
export function resumeCommand(command: CommandUnknownOpts): string {
  return continueCommand(command, { drop: ['--force'], add: ['--resume'] });
}

/** An interrupted run's exit code; any other error with how to resume it, rethrown for the error line. */
function stopped(ctx: CommandContext, error: unknown): number {
  if (error instanceof BatchInterruptedError) {
    ctx.out.info(
      `interrupted after row ${error.rowsDone}; ${error.statePath ? `state saved to ${error.statePath}; run again with --resume` : 'no state kept (use --out FILE)'}`,
    );
    return error.statePath ? EXIT.INTERRUPTED : EXIT.FAILURE;
  }
  if ((error instanceof BatchFileStoppedError || error instanceof BatchFileFailedError) && error.statePath) {
    error.message += `; ${error.rowsDone} rows done, state saved to ${error.statePath} (run again with --resume)`;
  }
  throw error;
}

/** The summary line on stderr, and the exit code of a finished run. */
function summary(ctx: CommandContext, ran: Ran, result: BatchFileResult, waitTimeoutMs: number): number {
  const { flags, out } = ran;
  const { counts } = result;
  const perStatus = Object.entries(counts)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const retry =
    result.retryable > 0
      ? `; ${result.retryable} failed row${result.retryable === 1 ? '' : 's'} can be retried: ${resumeCommand(ran.command)}`
      : '';
  ctx.out.info(
    `batch: ${result.rowsDone} rows (${perStatus || 'none'})${flags.rejects && counts.rejected ? `; rejects in ${flags.rejects}` : ''}${retry}`,
  );
  if (result.workbookCellsReplaced > 0)
    ctx.out.warn(
      `${out}: ${result.workbookCellsReplaced} cell(s) had characters a workbook cannot hold; replaced with U+FFFD`,
    );
  if (flags.wait && result.outstanding > 0) {
    ctx.out.warn(
      `${result.outstanding} row(s) still pending after ${waitTimeoutMs / 1000} s${out ? '; run the same command with --resume to finish them' : ''}`,
    );
    return EXIT.FAILURE;
  }
  return counts.failed ? EXIT.FAILURE : EXIT.OK;
}
