import {
  BatchFileFailedError,
  BatchFileStoppedError,
  BatchInterruptedError,
} from '../../tax/batch-file/errors.js';
import type { BatchFileEvent } from '../../tax/batch-file/options.js';
import { keepOldGenerationTight } from '../bulk-memory.js';
import type { CommandContext } from '../context.js';
import type { BatchOptions } from '../definitions/tax.js';
import { EXIT } from '../exit-codes.js';
import { startProgress } from '../progress.js';
import { parseIntOption, UsageError } from '../usage-error.js';
import { parseFileMode, stdoutAlias } from './output-flags.js';
import { precheckMode } from './tax-params.js';

const DELIMITERS: Readonly<Record<string, ',' | ';' | '\t'>> = { ',': ',', ';': ';', tab: '\t', '\t': '\t' };

/** `--delimiter , | ; | tab`. */
function parseDelimiter(value: string | undefined): ',' | ';' | '\t' | undefined {
  if (value === undefined) return undefined;
  const delimiter = DELIMITERS[value.toLowerCase()];
  if (!delimiter) throw new UsageError(`--delimiter must be , ; or tab, got '${value}'`);
  return delimiter;
}

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

/**
 * A whole number with its digits grouped as en-US writes them (`1,234,567`). Not
 * `Intl.NumberFormat`: creating the first one loads ICU data, 13 to 15 ms of every batch's start.
 */
function grouped(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `m:ss` (or `h:mm:ss`) for an ETA in seconds. */
function clock(seconds: number): string {
  const s = Math.max(Math.round(seconds), 0);
  const mm = String(Math.floor(s / 60) % 60);
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/**
 * The spinner text for a row event: `1,234 / 10,000 rows (12 %), ETA 0:42` once the total is
 * counted (the ETA once a rate is known), `1,234 rows` before; then rejected, failed and the rate.
 */
export function progressText(event: Extract<BatchFileEvent, { type: 'row' }>): string {
  const { rowsDone, rowsTotal, rowsPerSecond, counts } = event;
  let head = `${grouped(rowsDone)} rows`;
  if (rowsTotal !== undefined && rowsTotal > 0) {
    const percent = Math.min(Math.floor((rowsDone * 100) / rowsTotal), 100);
    head = `${grouped(rowsDone)} / ${grouped(rowsTotal)} rows (${percent} %)`;
    if (rowsPerSecond > 0) head += `, ETA ${clock((rowsTotal - rowsDone) / rowsPerSecond)}`;
  }
  return `batch: ${head}, ${counts.rejected ?? 0} rejected, ${counts.failed ?? 0} failed, ${grouped(rowsPerSecond)} rows/s`;
}

/** The spinner text while waiting: `waiting: 4,000 / 10,000 outcomes (40 %), 1,234/s, ETA 0:05`. */
export function waitingText(event: Extract<BatchFileEvent, { type: 'outcomes' }>): string {
  const { done, awaited, perSecond } = event;
  const percent = awaited > 0 ? Math.min(Math.floor((done * 100) / awaited), 100) : 100;
  const eta = perSecond > 0 && done < awaited ? `, ETA ${clock((awaited - done) / perSecond)}` : '';
  return `waiting: ${grouped(done)} / ${grouped(awaited)} outcomes (${percent} %), ${grouped(perSecond)}/s${eta}`;
}

function parseListen(value: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(value);
  if (!match) throw new UsageError(`--listen takes HOST:PORT, got '${value}'`);
  return {
    host: (match[1] as string).replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: parseIntOption(match[2] as string, '--listen port', 0, 65535),
  };
}

/** `svc batch <file.csv | ->`: validates every row of a CSV, resumably, exactly once (`client.tax.runBatchFile`). */
export async function batch(ctx: CommandContext, file: string, flags: BatchOptions): Promise<number> {
  const strategy = flags.strategy;
  if (strategy !== 'batch' && strategy !== 'single')
    throw new UsageError(`--strategy must be batch or single, got '${strategy}'`);
  const chunkSize = parseIntOption(flags.chunkSize, '--chunk-size', 1, 1000);
  const concurrency = parseIntOption(flags.concurrency, '--concurrency', 1, 64);
  const waitTimeoutMs = parseIntOption(flags.waitTimeout, '--wait-timeout', 1) * 1000;
  const quietMs = parseIntOption(flags.reconcileAfter, '--reconcile-after', 0, 86_400) * 1000;
  const mode = precheckMode(flags.precheck);
  const listen = parseListen(flags.listen);
  const fileMode = parseFileMode(flags.fileMode);
  const delimiter = parseDelimiter(flags.delimiter);
  const columns = parseColumns(flags.columns);
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
  const progress = await startProgress(ctx.io, ctx.settings.quiet, 'batch: starting');
  let shownTenth = 0;
  const onProgress = (event: BatchFileEvent) => {
    if (event.type === 'columns') {
      if (event.ignored.length)
        ctx.out.warn(`ignoring column(s) not part of a request: ${event.ignored.join(', ')}`);
      for (const [from, to] of event.renamed)
        ctx.out.info(`metadata column ${from} is sent as key ${to} (keys use a-z, 0-9, _ and -)`);
      if (event.countryFromPrefix)
        ctx.out.info('no country column: the country is taken from each VAT ID prefix');
    } else if (event.type === 'listening') {
      if (!event.registered)
        ctx.out.info(`waiting for webhooks on ${event.url} (register it as the project's webhook endpoint)`);
    } else if (event.type === 'encoding') {
      ctx.out.warn(
        `input is not valid UTF-8 (byte ${event.invalidAt}) and has no BOM: reading it as ${event.encoding}; use --encoding to choose`,
      );
    } else if (event.type === 'row') {
      progress.update(() => progressText(event));
    } else if (event.type === 'waiting') {
      // Every row already answered (refused locally, or answered at once by the service): nothing to say.
      if (event.outstanding > 0)
        progress.print(() =>
          ctx.out.info(`waiting for ${event.outstanding} completion(s), at most ${event.timeoutMs / 1000} s`),
        );
    } else if (event.type === 'outcomes') {
      // On a terminal the display shows it; otherwise one line per tenth of the rows awaited.
      if (progress.live) progress.update(() => waitingText(event));
      else if (event.awaited > 0) {
        const tenth = Math.floor((event.done * 10) / event.awaited);
        if (tenth > shownTenth) {
          shownTenth = tenth;
          ctx.out.info(waitingText(event));
        }
      }
    } else if (event.type === 'reconciling') {
      const why = {
        quiet: `no completion for ${quietMs / 1000} s`,
        resumed: 'their completions went to the interrupted run',
        timeout: `--wait-timeout of ${waitTimeoutMs / 1000} s is up`,
      }[event.reason];
      progress.print(() =>
        ctx.out.info(
          `asking the service about ${event.rows} row(s) without an outcome (${why}); nothing is validated twice`,
        ),
      );
    }
  };

  let result: Awaited<ReturnType<typeof client.tax.runBatchFile>>;
  try {
    result = await client.tax.runBatchFile({
      input: file === '-' ? ctx.io.stdin : String(file),
      encoding: flags.encoding,
      sheet: flags.sheet,
      ...(columns && { columns }),
      ...(delimiter && { delimiter }),
      ...(flags.bom !== undefined && { bom: flags.bom }),
      output: out ?? ctx.out.dataOut,
      format: ctx.settings.format === 'csv' ? 'csv' : 'ndjson',
      rejects: flags.rejects,
      state: flags.state,
      resume: flags.resume,
      force: flags.force,
      ...(fileMode !== undefined && { fileMode }),
      runId: flags.runId,
      strategy,
      chunkSize,
      concurrency,
      precheck: mode,
      wait: flags.wait && {
        ...listen,
        timeoutMs: waitTimeoutMs,
        quietMs,
        register: sandbox ? (url) => sandbox.admin.addWebhookEndpoint(url) : flags.register,
      },
      signal: ctx.signals.signal,
      onProgress,
    });
  } catch (error) {
    progress.stop();
    if (error instanceof BatchInterruptedError) {
      ctx.out.info(
        `interrupted after row ${error.rowsDone}; ${error.statePath ? `state saved to ${error.statePath}; run again with --resume` : 'no state kept (use --out FILE)'}`,
      );
      return error.statePath ? EXIT.INTERRUPTED : EXIT.FAILURE;
    }
    if (
      (error instanceof BatchFileStoppedError || error instanceof BatchFileFailedError) &&
      error.statePath
    ) {
      error.message += `; ${error.rowsDone} rows done, state saved to ${error.statePath} (run again with --resume)`;
    }
    throw error;
  }
  progress.stop();

  const { counts } = result;
  const summary = Object.entries(counts)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  ctx.out.info(
    `batch: ${result.rowsDone} rows (${summary || 'none'})${flags.rejects && counts.rejected ? `; rejects in ${flags.rejects}` : ''}`,
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
