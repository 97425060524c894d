import type { Writable } from 'node:stream';
import type { ReadableLike } from '../../../core/node-shapes.js';
import { isStreamPath } from '../../fs/output-file.js';
import { BatchInputError } from '../errors.js';
import { encodingName } from '../input/encoding.js';
import type { BatchFileOptions, BatchFileWaitOptions } from '../options.js';
import type { RowFormat } from '../output/format.js';
import type { ResultsTarget } from '../output/writers.js';
import { checkBatchPaths } from './paths.js';

/** A file run's options resolved and checked, before any file is opened. */
export interface RunPlan extends ResultsTarget {
  /** The input as given: a path, or a stream copied to a private file first. */
  source: string | ReadableLike;
  /** The input's name in the state file and in messages (`-` for a stream). */
  inputName: string;
  format: RowFormat;
  statePath: string | undefined;
  wait: BatchFileWaitOptions | undefined;
}

/**
 * The check phase: resolves where the results, rejects and state go and refuses a bad option or
 * path before anything is read, opened or sent.
 */
export async function checkRun(options: BatchFileOptions): Promise<RunPlan> {
  const named = typeof options.output === 'string' ? options.output : undefined;
  // The option types describe Node's streams by shape (node-shapes.ts); batch files run on Node,
  // and the results are written as text, which the shape (bytes only) does not promise.
  const stream = typeof options.output === 'string' ? undefined : (options.output as Writable | undefined);
  const source = options.input;
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
  const wait = options.wait === true ? {} : options.wait === false ? undefined : options.wait;
  const inputName = typeof options.input === 'string' ? options.input : '-';
  return { source, inputName, outPath, workbookPath, stream, format, statePath, wait };
}
