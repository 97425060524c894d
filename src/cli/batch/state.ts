import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from '../usage-error.js';
import { writeFileAtomic } from './durable-file.js';

/** What a batch run records after each checkpoint, so `--resume` can continue it. */
export interface BatchState {
  version: 1;
  runId: string;
  input: { path: string; size: number };
  /** Rows fully reported: their output lines (and reject lines) are on disk. */
  rowsDone: number;
  outBytes: number;
  rejectsBytes: number;
  counts: Record<string, number>;
  /** Set when the run stopped for a reason that resuming alone will not fix (e.g. a plan limit). */
  stoppedBy?: string;
  updatedAt: string;
}

export function saveState(path: string, state: BatchState): void {
  writeFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`);
}

/** Loads a state file for `--resume`; a missing or foreign state is a usage error. */
export function loadState(path: string, runId: string): BatchState {
  if (!existsSync(path)) throw new UsageError(`no state file at ${path} to resume from`);
  let state: BatchState;
  try {
    state = JSON.parse(readFileSync(path, 'utf8')) as BatchState;
  } catch {
    throw new UsageError(`state file ${path} is not valid JSON`);
  }
  if (state.version !== 1 || typeof state.rowsDone !== 'number' || typeof state.outBytes !== 'number') {
    throw new UsageError(`state file ${path} is not a batch state`);
  }
  if (state.runId !== runId) {
    throw new UsageError(
      `state file ${path} belongs to another input (the input changed since the interrupted run)`,
    );
  }
  return state;
}
