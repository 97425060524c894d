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
 * path before anything is read, opened or sent. It reads every group but `send`.
 */
export async function checkRun(
  options: Pick<BatchFileOptions, 'input' | 'output' | 'resume' | 'wait'>,
): Promise<RunPlan> {
  const input = options.input;
  const output = options.output ?? {};
  const resume = options.resume ?? {};
  const named = typeof output.path === 'string' ? output.path : undefined;
  // The option types describe Node's streams by shape (node-shapes.ts); batch files run on Node,
  // and the results are written as text, which the shape (bytes only) does not promise.
  const stream = typeof output.path === 'string' ? undefined : (output.path as Writable | undefined);
  const source = input.path;
  // A workbook cannot be appended to: the run appends to a rows file beside it (resumable like
  // any results file) and the workbook is written from that file at the end.
  const workbookPath = named && /\.xlsx$/i.test(named) ? named : undefined;
  const outPath = workbookPath ? `${workbookPath}.rows.ndjson` : named;
  const format: RowFormat = workbookPath
    ? 'rows'
    : (outPath ? outPath.toLowerCase().endsWith('.csv') : output.format === 'csv')
      ? 'csv'
      : 'ndjson';
  const outIsStream = outPath !== undefined && !workbookPath && (await isStreamPath(outPath));
  const statePath = resume.state ?? (named && !outIsStream ? `${named}.state.json` : undefined);
  if (resume.continue && !outPath)
    throw new BatchInputError('resume needs an output file: the output is continued where it stopped');
  await checkBatchPaths({
    input: source,
    outPath,
    workbookPath,
    outIsStream,
    rejects: output.rejects,
    statePath,
    stateGiven: resume.state !== undefined,
    resume: resume.continue === true,
    force: resume.force === true,
  });
  if (input.encoding !== undefined) await encodingName(input.encoding);
  if (output.delimiter !== undefined && ![',', ';', '\t'].includes(output.delimiter))
    throw new BatchInputError(`delimiter must be ',', ';' or a tab, got '${output.delimiter}'`);
  const wait = options.wait === true ? {} : options.wait === false ? undefined : options.wait;
  const inputName = typeof source === 'string' ? source : '-';
  return { source, inputName, outPath, workbookPath, stream, format, statePath, wait };
}
