import { access } from 'node:fs/promises';
import { OutputPathError } from '../../../core/errors/error-classes.js';
import type { ReadableLike } from '../../../core/node-shapes.js';
import { checkDistinctPaths } from '../../fs/distinct-paths.js';
import { checkStatePath, preflightOutput } from '../../fs/output-file.js';

/** The paths of a batch file run, once resolved. */
export interface BatchPaths {
  input: string | ReadableLike;
  outPath: string | undefined;
  /** A workbook results path (`outPath` is then its rows file). */
  workbookPath?: string;
  /** The results path names a device or FIFO: written as a stream. */
  outIsStream: boolean;
  rejects: string | undefined;
  statePath: string | undefined;
  /** The state path was given (not the default). */
  stateGiven: boolean;
  resume: boolean;
  force: boolean;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Every check on the files of a batch run, before a byte is written or the input is read: the
 * input, results, rejects and state are distinct files; outputs are not directories or symbolic
 * links to files; a results or rejects file with data, or the state of an earlier run, is refused
 * unless `resume` (continue it) or `force` (start over); a stream output takes no state file.
 */
export async function checkBatchPaths(paths: BatchPaths): Promise<void> {
  const { outPath, rejects, statePath, resume, force } = paths;
  await checkDistinctPaths([
    { name: 'the input', path: typeof paths.input === 'string' ? paths.input : undefined },
    { name: 'the results file', path: outPath },
    { name: 'the results workbook', path: paths.workbookPath },
    { name: 'the rejects file', path: rejects },
    { name: 'the state file', path: statePath },
  ]);
  if (paths.outIsStream && paths.stateGiven) {
    throw new OutputPathError(
      `${outPath} is a device or pipe, written as a stream: it cannot be resumed, so it takes no state file`,
    );
  }
  if (statePath) {
    await checkStatePath(statePath);
    // Only a results file keeps a state: without one the state is never read or written.
    if (outPath && !resume && !force && (await exists(statePath))) {
      throw new OutputPathError(
        `state file ${statePath} exists from an earlier run: use --resume (option resume.continue) to continue it, or --force to start over`,
      );
    }
  }
  if (outPath) await preflightOutput(outPath, { resume, force });
  if (paths.workbookPath) await preflightOutput(paths.workbookPath, { resume, force });
  if (rejects) await preflightOutput(rejects, { resume, force });
}
