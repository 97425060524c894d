import { OutputPathError } from '../../core/errors/error-classes.js';
import { checkDistinctPaths } from '../fs/distinct-paths.js';
import { checkStatePath, inspectOutput } from '../fs/output-file.js';

/**
 * Checks the files of an export before anything is written: output and state are distinct files,
 * the state is a regular file or nothing, the output is not a directory or a symbolic link to a
 * file, and a stream output (a device or FIFO such as `/dev/stdout`) takes no state file, since it
 * cannot be resumed. Whether an existing output may be replaced is decided when it is opened:
 * only when the state file names it (resume) or with `force`.
 */
export async function checkExportPaths(output: string, statePath: string | undefined): Promise<void> {
  await checkDistinctPaths([
    { name: 'the output', path: output },
    { name: 'the state file', path: statePath },
  ]);
  if (statePath === undefined) return;
  await checkStatePath(statePath);
  if ((await inspectOutput(output)) === 'stream') {
    throw new OutputPathError(
      `${output} is a device or pipe, written as a stream: it cannot be resumed, so it takes no state file`,
    );
  }
}
