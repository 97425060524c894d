import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { Checkpointer, DurableOutput, replaceFileAtomic, writeStateFile } from '../../core/checkpoint.js';
import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import { DEFAULT_FILE_MODE, isStreamPath } from '../../core/output-file.js';
import { BatchStoppedError } from '../batch/batch-stopped-error.js';
import { checkRow, runBatchSegments } from '../batch/runner.js';
import type { BatchSender, RunBatchOptions } from '../batch/types.js';
import { registerWebhookEndpoint, unregisterWebhookEndpoint } from '../register-webhook-endpoint.js';
import { type ColumnMap, mapColumns, recordToRequest } from './columns.js';
import { CompletionJoiner, type ResultFetcher } from './completion-joiner.js';
import { encodingName } from './encoding.js';
import {
  BatchFileFailedError,
  BatchFileStoppedError,
  BatchInputError,
  BatchInterruptedError,
} from './errors.js';
import { type InputFile, prepareInput } from './input-file.js';
import type { InputTable, TableRow } from './input-table.js';
import { countKey, mergeOutcomes } from './merge-outcomes.js';
import { openInputTable } from './open-input.js';
import type { BatchFileOptions, BatchFileResult, BatchFileWaitOptions } from './options.js';
import { OutcomeJournal, Scratch } from './outcome-journal.js';
import { checkBatchPaths } from './paths.js';
import { readBackResults } from './read-back.js';
import { type RowRequest, reconcile } from './reconcile.js';
import { type CsvStyle, type RowFormat, RowOutput, rejectLine, rejectsHeader } from './row-output.js';
import { type BatchFileState, loadBatchState } from './state.js';
import { DEFAULT_QUIET_MS, waitForOutcomes } from './wait-phase.js';
import { writeWorkbook } from './workbook-output.js';

/** What a batch file run needs of the tax client. */
export interface BatchFileClient extends ResultFetcher, BatchSender {}

/** Default wait for outcomes: 5 minutes. */
const DEFAULT_WAIT_TIMEOUT_MS = 300_000;

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
  // The option types describe Node's streams by shape (node-shapes.ts); batch files run on Node.
  const stream = typeof options.output === 'string' ? undefined : (options.output as Writable | undefined);
  const source = options.input as string | Readable;
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
    input: source,
    outPath,
    workbookPath,
    outIsStream,
    rejects: options.rejects,
    statePath,
    stateGiven: options.state !== undefined,
    resume: options.resume === true,
    force: options.force === true,
  });
  if (options.encoding !== undefined) await encodingName(options.encoding);
  if (options.delimiter !== undefined && ![',', ';', '\t'].includes(options.delimiter))
    throw new BatchInputError(`delimiter must be ',', ';' or a tab, got '${options.delimiter}'`);
  const wait: BatchFileWaitOptions | undefined =
    options.wait === true ? {} : options.wait === false ? undefined : options.wait;
  const input = await prepareInput(source, options.signal);
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
  // With `wait`, the outcomes that arrive go to a journal in a private scratch folder, and the
  // results of the submitting pass to a draft: the output file itself, or, for a stream (or a
  // device such as /dev/stdout), a private file; the final results are merged from both at the end.
  const scratch = wait ? new Scratch() : undefined;
  const streamDraft =
    scratch && (stream || (outFile && !outFile.seekable))
      ? await DurableOutput.open(scratch.path('draft'), undefined, { mode: 0o600 })
      : undefined;
  const lines = wait ? (outFile?.seekable ? outFile : streamDraft) : outFile;
  const journal = scratch ? new OutcomeJournal(scratch.path('outcomes'), rowsTotal ?? 0) : undefined;
  const keptState = statePath && outFile?.seekable ? statePath : undefined;
  const counts: Record<string, number> = { ...state?.counts };
  const skipRows = state?.rowsDone ?? 0;
  let rowsDone = skipRows;
  // The output sizes at the end of the last segment written whole: what a state file may promise.
  let outDone = outFile?.size ?? 0;
  let rejectsDone = rejectsFile?.size ?? 0;
  let stoppedBy: string | undefined;
  const snapshot = (): BatchFileState => ({
    version: 1,
    runId,
    input: { path: inputName, size: input.size },
    rowsDone,
    outBytes: outDone,
    rejectsBytes: rejectsDone,
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
  const runOptions: RunBatchOptions = {
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
  };

  const joiner =
    journal &&
    new CompletionJoiner(tax, {
      onOutcome: (row, outcome) => {
        // Without a draft the counts are kept here; with one they are recounted by the merge.
        if (journal.add(row, outcome) && !lines) {
          counts.submitted = (counts.submitted ?? 1) - 1;
          const key = outcome.status === 'completed' ? `completed:${outcome.outcome}` : outcome.status;
          counts[key] = (counts[key] ?? 0) + 1;
        }
      },
    });
  // Removes the endpoint registered through a reference server's admin API when the run ends.
  let unregister: (() => Promise<void>) | undefined;
  try {
    if (!state) {
      if (csvOut) {
        if (lines) await lines.append(output.header());
        else if (stream && !wait) stream.write(output.header());
      }
      await rejectsFile?.append(rejectsHeader(columns.header, style));
    }
    if (joiner && wait) {
      const url = await joiner.listen(wait.host ?? '127.0.0.1', wait.port ?? 0);
      const { register } = wait;
      if (typeof register === 'function') await register(url);
      else if (register !== undefined) {
        await registerWebhookEndpoint(register, url, { signal });
        unregister = () => unregisterWebhookEndpoint(register, url).catch(() => {});
      }
      onProgress?.({ type: 'listening', url, registered: register !== undefined });
      // Rows an earlier run left without an outcome: their completions went to its listener.
      if (state && outPath)
        for await (const kept of readBackResults(
          outPath,
          format,
          state.outBytes,
          columns.header.length,
          style.delimiter,
        ))
          if ((kept.status === 'submitted' || kept.status === 'pending') && kept.validationRequestId)
            joiner.track(kept.row, kept.validationRequestId, undefined, true);
    }

    // The input records of the rows sent, in order: results come back in input order, one per
    // row after the skipped ones, so the oldest record is always the next result's.
    const records: TableRow[][] = [];
    let recordAt = 0;
    async function* requests(): AsyncGenerator<unknown[]> {
      let row = 0;
      for await (const batch of table.batches) {
        const out: unknown[] = new Array(batch.length);
        const kept: TableRow[] = [];
        for (let i = 0; i < batch.length; i++) {
          row += 1;
          if (row <= skipRows) {
            out[i] = null;
            continue;
          }
          const record = batch[i] as TableRow;
          kept.push(record);
          out[i] = recordToRequest(record.cells, columns);
        }
        if (kept.length > 0) records.push(kept);
        yield out;
      }
    }
    const nextRecord = (): TableRow | undefined => {
      const batch = records[0];
      if (!batch) return undefined;
      const record = batch[recordAt++];
      if (recordAt >= batch.length) {
        records.shift();
        recordAt = 0;
      }
      return record;
    };

    // A state file from the first moment, so a run killed before its first checkpoint resumes too.
    outDone = outFile?.size ?? 0;
    rejectsDone = rejectsFile?.size ?? 0;
    await checkpoints.commit();
    const started = Date.now();
    try {
      for await (const results of runBatchSegments(tax, requests(), runOptions)) {
        // A segment is written whole, then counted: a state file never covers half of one.
        let text = '';
        let rejects = '';
        for (const result of results) {
          const tableRow = nextRecord();
          const record = tableRow?.cells;
          if (tableRow) result.line = tableRow.line;
          if (result.status === 'rejected' && rejectsFile)
            rejects += rejectLine(result, record, columns.header.length, style);
          text += output.line(result, record);
        }
        if (rejects) await rejectsFile?.append(rejects);
        if (lines) await lines.append(text);
        else if (stream && !wait) stream.write(text);
        const last = results.at(-1)?.row ?? rowsDone;
        const rowsPerSecond = Math.round(((last - skipRows) * 1000) / Math.max(Date.now() - started, 1));
        for (const result of results) {
          const key = countKey(result);
          counts[key] = (counts[key] ?? 0) + 1;
          if (joiner && result.status === 'submitted' && result.validationRequestId)
            joiner.track(
              result.row,
              result.validationRequestId,
              (result as { knownResultId?: string }).knownResultId,
            );
          rowsDone = result.row;
          onProgress?.({ type: 'row', result, rowsDone, rowsTotal, counts, rowsPerSecond });
        }
        outDone = outFile?.size ?? 0;
        rejectsDone = rejectsFile?.size ?? 0;
        await checkpoints.step(results.length);
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
      // An output that cannot be written, with no state file to resume from: its own message.
      if (!keptState && error instanceof SvcError && error.code === 'io') throw error;
      throw new BatchFileFailedError(error, rowsDone, keptState);
    }
    await checkpoints.commit();

    let outstanding = 0;
    if (joiner && wait && journal) {
      const timeoutMs = wait.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
      onProgress?.({ type: 'waiting', outstanding: joiner.outstanding, timeoutMs });
      const end = await waitForOutcomes(joiner, {
        timeoutMs,
        quietMs: wait.quietMs ?? DEFAULT_QUIET_MS,
        signal,
        onProgress: (event) => onProgress?.(event),
        reconcile: (deadline, pause) =>
          reconcile(tax, joiner, {
            pause,
            requests: (rows) => rowRequests(opened.reopen, columns, rows, runOptions, runId),
            concurrency: wait.reconcileConcurrency,
            backoffMs: wait.pendingBackoffMs,
            deadline,
            signal,
            request: { timeoutMs: options.timeoutMs, maxRetries: options.maxRetries },
          }),
      });
      outstanding = joiner.outstanding;
      await joiner.close();
      const final = end !== 'aborted';
      if (lines) {
        await lines.flush();
        for (const key of Object.keys(counts)) delete counts[key];
        const merged = mergeOutcomes({
          draft: { path: lines.path, bytes: lines.size },
          output,
          records: (await opened.reopen()).rows,
          journal,
          final,
          counts,
        });
        if (outFile?.seekable && outPath) {
          await outFile.close();
          let bytes = 0;
          const counted = async function* () {
            for await (const chunk of merged) {
              bytes += Buffer.byteLength(chunk);
              yield chunk;
            }
          };
          await replaceFileAtomic(outPath, counted(), { mode: options.fileMode ?? DEFAULT_FILE_MODE });
          if (keptState) await writeStateFile(keptState, { ...snapshot(), outBytes: bytes });
        } else if (outFile) {
          for await (const chunk of merged) await outFile.append(chunk);
        } else if (stream) {
          for await (const chunk of merged) if (!stream.write(chunk)) await once(stream, 'drain');
        }
      } else if (final && outstanding > 0) {
        counts.submitted = (counts.submitted ?? outstanding) - outstanding;
        counts.pending = outstanding;
      }
      if (!final) throw new BatchInterruptedError(rowsDone, keptState);
    }
    let workbookCellsReplaced = 0;
    if (workbookPath && outPath) {
      await outFile?.close();
      workbookCellsReplaced = await writeWorkbook(
        outPath,
        workbookPath,
        columns.header,
        options.fileMode ?? DEFAULT_FILE_MODE,
      );
    }
    return {
      rowsDone,
      counts,
      outstanding,
      resumed: state !== undefined,
      statePath: keptState,
      workbookCellsReplaced,
    };
  } finally {
    await unregister?.();
    await joiner?.close();
    journal?.close();
    await streamDraft?.close().catch(() => {});
    scratch?.remove();
    await outFile?.close().catch(() => {});
    await rejectsFile?.close().catch(() => {});
  }
}

/** The original requests of `rows` (ascending), rebuilt from the input exactly as they were sent. */
async function* rowRequests(
  reopen: () => Promise<InputTable>,
  columns: ColumnMap,
  rows: readonly number[],
  runOptions: RunBatchOptions,
  runId: string,
): AsyncGenerator<RowRequest> {
  if (rows.length === 0) return;
  const { rows: records } = await reopen();
  let row = 0;
  let next = 0;
  for await (const record of records) {
    row += 1;
    if (row !== rows[next]) continue;
    next += 1;
    const slot = checkRow(row, recordToRequest(record.cells, columns), runOptions, runId);
    yield { row, request: 'request' in slot ? slot.request : undefined };
    if (next >= rows.length) break;
  }
}
