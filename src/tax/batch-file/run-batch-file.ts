import type { Writable } from 'node:stream';
import { Checkpointer, DurableOutput, replaceFileAtomic, writeStateFile } from '../../core/checkpoint.js';
import { AbortError } from '../../core/errors/abort-error.js';
import { DEFAULT_FILE_MODE, isStreamPath } from '../../core/output-file.js';
import { BatchStoppedError } from '../batch/batch-stopped-error.js';
import type { BatchRowResult, RunBatchOptions } from '../batch/types.js';
import { registerWebhookEndpoint, unregisterWebhookEndpoint } from '../register-webhook-endpoint.js';
import { mapColumns, recordToRequest } from './columns.js';
import { CompletionJoiner, type ResultFetcher } from './completion-joiner.js';
import { encodingName } from './encoding.js';
import {
  BatchFileFailedError,
  BatchFileStoppedError,
  BatchInputError,
  BatchInterruptedError,
} from './errors.js';
import { type InputFile, prepareInput } from './input-file.js';
import type { TableRow } from './input-table.js';
import { openInputTable } from './open-input.js';
import type { BatchFileOptions, BatchFileResult, BatchFileWaitOptions } from './options.js';
import { checkBatchPaths } from './paths.js';
import { type KeptRow, readBackRows } from './read-back.js';
import { type CsvStyle, type RowFormat, RowOutput, rejectLine, rejectsHeader } from './row-output.js';
import { type BatchFileState, loadBatchState } from './state.js';
import { writeWorkbook } from './workbook-output.js';

/** What a batch file run needs of the tax client. */
export interface BatchFileClient extends ResultFetcher {
  runBatch(rows: AsyncIterable<unknown>, options: RunBatchOptions): AsyncIterable<BatchRowResult>;
}

/** Default wait for outcomes: 5 minutes. */
const DEFAULT_WAIT_TIMEOUT_MS = 300_000;

const countKey = (r: BatchRowResult) => (r.status === 'completed' ? `completed:${r.outcome}` : r.status);

/**
 * Validates every row of a CSV file, file to file: results, rejects and a state file, checkpointed
 * once a second, resumable after a crash with nothing sent twice (deterministic idempotency keys)
 * and nothing lost; with `wait`, joined with the webhook outcomes. See {@link BatchFileOptions}.
 */
export async function runBatchFile(
  tax: BatchFileClient,
  options: BatchFileOptions,
): Promise<BatchFileResult> {
  const named = typeof options.output === 'string' ? options.output : undefined;
  const stream = typeof options.output === 'string' ? undefined : options.output;
  // A workbook cannot be appended to: the run appends to a rows file beside it (resumable like
  // any results file) and the workbook is written from that file at the end.
  const workbookPath = named && /\.xlsx$/i.test(named) ? named : undefined;
  const outPath = workbookPath ? `${workbookPath}.rows.ndjson` : named;
  const format: RowFormat = workbookPath
    ? 'rows'
    : (outPath ? outPath.toLowerCase().endsWith('.csv') : options.format === 'csv')
      ? 'csv'
      : 'ndjson';
  const outIsStream = outPath !== undefined && !workbookPath && (await isStreamPath(outPath));
  const statePath = options.state ?? (named && !outIsStream ? `${named}.state.json` : undefined);
  if (options.resume && !outPath)
    throw new BatchInputError('resume needs an output file: the output is continued where it stopped');
  await checkBatchPaths({
    input: options.input,
    outPath,
    workbookPath,
    outIsStream,
    rejects: options.rejects,
    statePath,
    stateGiven: options.state !== undefined,
    resume: options.resume === true,
    force: options.force === true,
  });
  if (options.encoding !== undefined) encodingName(options.encoding);
  if (options.delimiter !== undefined && ![',', ';', '\t'].includes(options.delimiter))
    throw new BatchInputError(`delimiter must be ',', ';' or a tab, got '${options.delimiter}'`);
  const wait: BatchFileWaitOptions | undefined =
    options.wait === true ? {} : options.wait === false ? undefined : options.wait;
  const input = await prepareInput(options.input, options.signal);
  try {
    return await runPrepared(tax, options, input, { outPath, workbookPath, stream, format, statePath, wait });
  } finally {
    await input.removeCopy();
  }
}

/** The run once the input is a file on disk and the options are resolved. */
async function runPrepared(
  tax: BatchFileClient,
  options: BatchFileOptions,
  input: InputFile,
  resolved: {
    outPath: string | undefined;
    workbookPath: string | undefined;
    stream: Writable | undefined;
    format: RowFormat;
    statePath: string | undefined;
    wait: BatchFileWaitOptions | undefined;
  },
): Promise<BatchFileResult> {
  const { outPath, workbookPath, stream, format, statePath, wait } = resolved;
  const csvOut = format === 'csv';
  const { signal, onProgress } = options;
  const inputName = typeof options.input === 'string' ? options.input : '-';
  const runId = options.runId ?? input.sha256;
  const state: BatchFileState | undefined =
    options.resume && statePath ? await loadBatchState(statePath, runId) : undefined;
  const opened = await openInputTable(input.path, inputName, {
    encoding: options.encoding,
    sheet: options.sheet,
  });
  const { table, rowsTotal } = opened;
  if (opened.fallback) onProgress?.({ type: 'encoding', ...opened.fallback });
  let columns: ReturnType<typeof mapColumns>;
  try {
    columns = mapColumns(table.header, options.columns);
  } catch (error) {
    await table.rows[Symbol.asyncIterator]().return?.();
    throw error;
  }
  if (columns.ignored.length || columns.renamed.length || columns.countryFromPrefix)
    onProgress?.({
      type: 'columns',
      ignored: columns.ignored,
      renamed: columns.renamed,
      countryFromPrefix: columns.countryFromPrefix,
    });
  // CSV results as the CSV came in: its delimiter, and a BOM when it had one or was not UTF-8.
  const style: CsvStyle = {
    delimiter: options.delimiter ?? table.dialect?.delimiter ?? ',',
    bom: options.bom ?? table.dialect?.bom ?? table.dialect === undefined,
  };
  const output = new RowOutput(columns.header, format, style);

  const opening = { force: options.force, mode: options.fileMode ?? DEFAULT_FILE_MODE };
  const outFile = outPath ? await DurableOutput.open(outPath, state?.outBytes, opening) : undefined;
  const rejectsFile = options.rejects
    ? await DurableOutput.open(options.rejects, state ? state.rejectsBytes : undefined, opening).catch(
        async (error: unknown) => {
          await outFile?.close();
          throw error;
        },
      )
    : undefined;
  // A device or FIFO (`/dev/stdout`) is a stream: no state, and with `wait` written once at the end.
  const outFileNow = outFile?.seekable || !wait ? outFile : undefined;
  const keptState = statePath && outFile?.seekable ? statePath : undefined;
  const counts: Record<string, number> = { ...state?.counts };
  const skipRows = state?.rowsDone ?? 0;
  let rowsDone = skipRows;
  let stoppedBy: string | undefined;
  const snapshot = (): BatchFileState => ({
    version: 1,
    runId,
    input: { path: inputName, size: input.size },
    rowsDone,
    outBytes: outFile?.size ?? 0,
    rejectsBytes: rejectsFile?.size ?? 0,
    counts: { ...counts },
    ...(stoppedBy && { stoppedBy }),
    updatedAt: new Date().toISOString(),
  });
  const checkpoints = new Checkpointer({
    statePath: keptState,
    outputs: [outFile, rejectsFile],
    state: snapshot,
    policy: { everySteps: Number.POSITIVE_INFINITY, everyMs: 1000, ...options.sync },
  });

  const joiner = wait ? new CompletionJoiner(tax) : undefined;
  // Removes the endpoint registered through a reference server's admin API when the run ends.
  let unregister: (() => Promise<void>) | undefined;
  try {
    if (!state) {
      if (csvOut) {
        if (outFileNow) await outFileNow.append(output.header());
        else if (stream && !joiner) stream.write(output.header());
      }
      await rejectsFile?.append(rejectsHeader(columns.header, style));
    }
    const kept: KeptRow[] =
      joiner && state && outPath
        ? await readBackRows(outPath, format, state.outBytes, columns.header, style.delimiter)
        : [];
    if (joiner && wait) {
      const url = await joiner.listen(wait.host ?? '127.0.0.1', wait.port ?? 0);
      const { register } = wait;
      if (typeof register === 'function') await register(url);
      else if (register !== undefined) {
        await registerWebhookEndpoint(register, url, { signal });
        unregister = () => unregisterWebhookEndpoint(register, url).catch(() => {});
      }
      onProgress?.({ type: 'listening', url, registered: register !== undefined });
      for (const row of kept) joiner.track(row.result);
    }

    const recordsOf = new Map<number, TableRow>();
    async function* requests() {
      let row = 0;
      for await (const record of table.rows) {
        row += 1;
        if (row <= skipRows) {
          yield null;
          continue;
        }
        recordsOf.set(row, record);
        yield recordToRequest(record.cells, columns);
      }
    }

    // A state file from the first moment, so a run killed before its first checkpoint resumes too.
    await checkpoints.commit();
    const started = Date.now();
    try {
      for await (const result of tax.runBatch(requests(), {
        strategy: options.strategy,
        chunkSize: options.chunkSize,
        concurrency: options.concurrency,
        precheck: options.precheck,
        fieldName: columns.fieldName,
        timeoutMs: options.timeoutMs,
        maxRetries: options.maxRetries,
        deadlineMs: options.deadlineMs,
        runId,
        skipRows,
        signal,
      })) {
        const tableRow = recordsOf.get(result.row);
        recordsOf.delete(result.row);
        const record = tableRow?.cells;
        if (tableRow) result.line = tableRow.line;
        if (result.status === 'rejected' && rejectsFile)
          await rejectsFile.append(rejectLine(result, record, columns.header.length, style));
        const key = countKey(result);
        counts[key] = (counts[key] ?? 0) + 1;
        if (joiner) {
          kept.push({ result, record: record ?? [] });
          joiner.track(result);
        }
        const line = output.line(result, record);
        if (outFileNow) await outFileNow.append(line);
        else if (stream && !joiner) stream.write(line);
        rowsDone = result.row;
        await checkpoints.step();
        const rowsPerSecond = Math.round(((rowsDone - skipRows) * 1000) / Math.max(Date.now() - started, 1));
        onProgress?.({ type: 'row', result, rowsDone, rowsTotal, counts, rowsPerSecond });
      }
    } catch (error) {
      if (error instanceof AbortError && signal?.aborted) {
        await checkpoints.commit();
        throw new BatchInterruptedError(rowsDone, keptState);
      }
      if (error instanceof BatchStoppedError) {
        stoppedBy = error.message;
        await checkpoints.commit();
        throw new BatchFileStoppedError(error, rowsDone, keptState);
      }
      // Keep what was reported, and say how to continue.
      await checkpoints.commit().catch(() => {});
      if (error instanceof BatchInputError) throw error;
      throw new BatchFileFailedError(error, rowsDone, keptState);
    }
    await checkpoints.commit();

    if (joiner) {
      const timeoutMs = wait?.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
      onProgress?.({ type: 'waiting', outstanding: joiner.outstanding, timeoutMs });
      await joiner.wait(timeoutMs, signal);
      const text = output.header() + kept.map((k) => output.line(k.result, k.record)).join('');
      for (const key of Object.keys(counts)) delete counts[key];
      for (const { result: r } of kept) counts[countKey(r)] = (counts[countKey(r)] ?? 0) + 1;
      if (outFile && !outFile.seekable) await outFile.append(text);
      else if (outPath) {
        await outFile?.close();
        await replaceFileAtomic(outPath, text, options.fileMode ?? DEFAULT_FILE_MODE);
        if (keptState) await writeStateFile(keptState, { ...snapshot(), outBytes: Buffer.byteLength(text) });
      } else stream?.write(text);
    }
    if (workbookPath && outPath) {
      await outFile?.close();
      await writeWorkbook(outPath, workbookPath, columns.header, options.fileMode ?? DEFAULT_FILE_MODE);
    }
    return {
      rowsDone,
      counts,
      outstanding: joiner?.outstanding ?? 0,
      resumed: state !== undefined,
      statePath: keptState,
    };
  } finally {
    await unregister?.();
    await joiner?.close();
    await outFile?.close().catch(() => {});
    await rejectsFile?.close().catch(() => {});
  }
}
