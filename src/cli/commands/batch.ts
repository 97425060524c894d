import { readFileSync } from 'node:fs';
import { AbortError } from '../../core/errors/abort-error.js';
import { BatchStoppedError } from '../../tax/batch/batch-stopped-error.js';
import type { BatchRowResult } from '../../tax/batch/types.js';
import { openCsv, recordToRequest } from '../batch/csv-input.js';
import { DurableFile, writeFileAtomic } from '../batch/durable-file.js';
import { prepareInput } from '../batch/input-file.js';
import { OUTPUT_COLUMNS, outputLine, rejectLine, rejectsHeader } from '../batch/row-output.js';
import { type BatchState, loadState, saveState } from '../batch/state.js';
import { CompletionJoiner } from '../batch/wait.js';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { csvLine } from '../output-format.js';
import { startProgress } from '../progress.js';
import { parseIntOption, UsageError } from '../usage-error.js';
import { precheckMode } from './tax-params.js';

/** How often a batch run makes its output durable and saves its state. */
const CHECKPOINT_INTERVAL_MS = 1000;

interface BatchFlags {
  out?: string;
  rejects?: string;
  chunkSize: string;
  concurrency: string;
  strategy: string;
  wait?: boolean;
  resume?: boolean;
  state?: string;
  precheck?: string | false;
  runId?: string;
  listen: string;
  register?: string;
  waitTimeout: string;
}

function parseListen(value: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(value);
  if (!match) throw new UsageError(`--listen takes HOST:PORT, got '${value}'`);
  return {
    host: (match[1] as string).replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: parseIntOption(match[2] as string, '--listen port', 0, 65535),
  };
}

/** Rows of an earlier run, read back from its NDJSON or CSV output (for `--resume --wait`). */
async function readBackRows(path: string, csv: boolean, upTo: number): Promise<BatchRowResult[]> {
  const text = readFileSync(path, 'utf8').slice(0, upTo);
  if (!csv)
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as BatchRowResult);
  const { parse } = await import('csv-parse/sync');
  const records = parse(text, { columns: true }) as Array<Record<string, string>>;
  return records.map((r) => {
    const row: Record<string, unknown> = {};
    for (const c of OUTPUT_COLUMNS)
      if (r[c] !== undefined && r[c] !== '') row[c] = c === 'row' ? Number(r[c]) : r[c];
    return row as unknown as BatchRowResult;
  });
}

/** `svc batch <file.csv | ->`: validates every row of a CSV, resumably, exactly once. */
export async function batch(ctx: CommandContext, file: unknown, options: unknown): Promise<number> {
  const flags = options as BatchFlags;
  const strategy = flags.strategy;
  if (strategy !== 'batch' && strategy !== 'single')
    throw new UsageError(`--strategy must be batch or single, got '${strategy}'`);
  const chunkSize = parseIntOption(flags.chunkSize, '--chunk-size', 1, 1000);
  const concurrency = parseIntOption(flags.concurrency, '--concurrency', 1, 64);
  const waitTimeoutMs = parseIntOption(flags.waitTimeout, '--wait-timeout', 1) * 1000;
  const mode = precheckMode(flags.precheck);
  const listen = parseListen(flags.listen);
  const out = flags.out === '-' ? undefined : flags.out;
  const csvOut = out?.toLowerCase().endsWith('.csv') ?? ctx.format === 'csv';
  const statePath = flags.state ?? (out ? `${out}.state.json` : undefined);
  if (flags.resume && !statePath) throw new UsageError('--resume needs --out FILE (or --state FILE)');
  if (flags.resume && !out)
    throw new UsageError('--resume needs --out FILE: the output is continued where it stopped');

  const input = await prepareInput(String(file), ctx.io.stdin);
  const runId = flags.runId ?? input.sha256;
  const state: BatchState | undefined = flags.resume && statePath ? loadState(statePath, runId) : undefined;
  const { columns, records } = await openCsv(input.path);
  if (columns.ignored.length)
    ctx.warn(`ignoring column(s) not part of a request: ${columns.ignored.join(', ')}`);
  for (const [from, to] of columns.renamed)
    ctx.info(`metadata column ${from} is sent as key ${to} (keys use a-z, 0-9, _ and -)`);

  const outFile = out ? new DurableFile(out, state?.outBytes) : undefined;
  const rejectsFile = flags.rejects
    ? new DurableFile(flags.rejects, state ? state.rejectsBytes : undefined)
    : undefined;
  if (!state) {
    if (csvOut)
      outFile
        ? outFile.write(csvLine([...OUTPUT_COLUMNS]))
        : ctx.io.stdout.write(csvLine([...OUTPUT_COLUMNS]));
    rejectsFile?.write(rejectsHeader(columns.header));
  }
  const counts: Record<string, number> = { ...state?.counts };
  const skipRows = state?.rowsDone ?? 0;
  const client = await ctx.client();

  const joiner = flags.wait ? new CompletionJoiner(client) : undefined;
  const kept: BatchRowResult[] =
    flags.wait && state && out ? await readBackRows(out, csvOut, state.outBytes) : [];
  if (joiner) {
    const url = await joiner.listen(listen.host, listen.port);
    ctx.onClose(() => joiner.close());
    const sandbox = await ctx.sandbox();
    if (sandbox) sandbox.admin.addWebhookEndpoint(url);
    else if (flags.register) {
      const res = await fetch(new URL('/__admin/webhook-endpoints', flags.register), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      }).catch(() => undefined);
      if (!res?.ok) throw new UsageError(`registering the webhook listener at ${flags.register} failed`);
    } else ctx.info(`waiting for webhooks on ${url} (register it as the project's webhook endpoint)`);
    for (const row of kept) joiner.track(row);
  }

  const recordsOf = new Map<number, string[]>();
  async function* requests() {
    let row = 0;
    for await (const record of records) {
      row += 1;
      if (row <= skipRows) {
        yield null;
        continue;
      }
      if (rejectsFile) recordsOf.set(row, record);
      yield recordToRequest(record, columns);
    }
  }

  let rowsDone = skipRows;
  const started = Date.now();
  const progress = await startProgress(ctx.io, ctx.quiet, 'batch: starting');
  const checkpoint = (stoppedBy?: string) => {
    outFile?.checkpoint();
    rejectsFile?.checkpoint();
    if (statePath && outFile) {
      saveState(statePath, {
        version: 1,
        runId,
        input: { path: String(file), size: input.size },
        rowsDone,
        outBytes: outFile.size,
        rejectsBytes: rejectsFile?.size ?? 0,
        counts,
        ...(stoppedBy && { stoppedBy }),
        updatedAt: new Date().toISOString(),
      });
    }
  };

  // A state file from the first moment, so a run killed before its first checkpoint can resume too.
  checkpoint();
  let lastCheckpoint = Date.now();
  try {
    for await (const result of client.tax.runBatch(requests(), {
      strategy,
      chunkSize,
      concurrency,
      precheck: mode,
      runId,
      skipRows,
      signal: ctx.io.signal,
    })) {
      const record = recordsOf.get(result.row);
      recordsOf.delete(result.row);
      if (result.status === 'rejected' && rejectsFile) {
        rejectsFile.write(
          rejectLine(
            result.row,
            record,
            columns.header.length,
            result.code ?? 'REJECTED',
            result.message ?? '',
          ),
        );
      }
      const key = result.status === 'completed' ? `completed:${result.outcome}` : result.status;
      counts[key] = (counts[key] ?? 0) + 1;
      if (joiner) {
        kept.push(result);
        joiner.track(result);
      }
      const line = outputLine(result, csvOut);
      if (outFile) outFile.write(line);
      else if (!joiner) ctx.io.stdout.write(line);
      rowsDone = result.row;
      // Checkpoints cost an fsync: take one a second. A resume re-sends at most that second's
      // rows, and their idempotency keys make the server replay them instead of validating twice.
      if (Date.now() - lastCheckpoint >= CHECKPOINT_INTERVAL_MS) {
        checkpoint();
        lastCheckpoint = Date.now();
      }
      const rate = Math.round(((rowsDone - skipRows) * 1000) / Math.max(Date.now() - started, 1));
      progress.update(
        `batch: ${rowsDone} rows, ${counts.rejected ?? 0} rejected, ${counts.failed ?? 0} failed, ${rate} rows/s`,
      );
    }
  } catch (error) {
    progress.stop();
    if (error instanceof AbortError && ctx.io.signal?.aborted) {
      checkpoint();
      ctx.info(
        `interrupted after row ${rowsDone}; ${statePath ? `state saved to ${statePath}; run again with --resume` : 'no state kept (use --out FILE)'}`,
      );
      return statePath && outFile ? EXIT.INTERRUPTED : EXIT.FAILURE;
    }
    if (error instanceof BatchStoppedError) {
      checkpoint(error.message);
      throw new BatchStoppedError(
        `${error.message}${statePath && outFile ? `; ${rowsDone} rows done, state saved to ${statePath} (run again with --resume)` : ''}`,
        error.nextRow,
        error.cause,
      );
    }
    throw error;
  }
  progress.stop();
  checkpoint();

  if (joiner) {
    ctx.info(`waiting for ${joiner.outstanding} completion(s), at most ${waitTimeoutMs / 1000} s`);
    await joiner.wait(waitTimeoutMs, ctx.io.signal);
    const text =
      (csvOut ? csvLine([...OUTPUT_COLUMNS]) : '') + kept.map((r) => outputLine(r, csvOut)).join('');
    if (out) writeFileAtomic(out, text);
    else ctx.io.stdout.write(text);
    for (const key of Object.keys(counts)) delete counts[key];
    for (const r of kept) {
      const key = r.status === 'completed' ? `completed:${r.outcome}` : r.status;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    if (statePath && out)
      saveState(statePath, {
        ...(JSON.parse(readFileSync(statePath, 'utf8')) as BatchState),
        outBytes: Buffer.byteLength(text),
        counts,
      });
  }
  outFile?.close();
  rejectsFile?.close();

  const summary = Object.entries(counts)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  ctx.info(
    `batch: ${rowsDone} rows (${summary || 'none'})${flags.rejects && counts.rejected ? `; rejects in ${flags.rejects}` : ''}`,
  );
  if (joiner && joiner.outstanding > 0) {
    ctx.warn(`${joiner.outstanding} row(s) have no outcome after ${waitTimeoutMs / 1000} s`);
    return EXIT.FAILURE;
  }
  return counts.failed ? EXIT.FAILURE : EXIT.OK;
}
