import { readFile } from 'node:fs/promises';
import * as z from 'zod/mini';
import { CheckpointError } from '../../core/errors/error-classes.js';
import { replaceFileAtomic } from './atomic-file.js';
import type { DurableOutput } from './output-file.js';

/**
 * The one checkpoint module: a state file replaced atomically, the commit that makes append-only
 * outputs ({@link DurableOutput}, output-file.ts, which also cuts them back to a state's size on
 * resume) durable before a state names their size, and the policy that decides how often to pay
 * for an fsync. Audit export and batch file runs both use it.
 *
 * The contract: a state file only ever names output bytes that were fsynced before it was
 * written. A crash at any moment leaves the last state and outputs at least as long as it says;
 * a resume truncates them to the recorded sizes and continues, so nothing is repeated or lost.
 */

// Its own module, so the root entry exports it without loading this file's fs machinery.
export { CheckpointError } from '../../core/errors/error-classes.js';
// The state file is replaced by the one atomic-write module; callers of the checkpoint find it here too.
export { replaceFileAtomic } from './atomic-file.js';

/** Messages (and the error code) for a state file that exists but cannot be read. */
export interface StateFileMessages {
  /** The file is not JSON. */
  notJson: string;
  /** The JSON does not match the schema. */
  notState: string;
  /** `code` of the {@link CheckpointError}. Default `bad_state`. */
  code?: string;
}

/**
 * Reads and checks a state file. Undefined when it does not exist; a {@link CheckpointError} when
 * it is not JSON or not of the schema.
 */
export async function readStateFile<S extends z.core.$ZodType>(
  path: string,
  schema: S,
  messages: StateFileMessages,
): Promise<z.infer<S> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseStateText(text, schema, messages);
}

/** Checks the text of a state file (read from a folder or a bucket); a {@link CheckpointError} when it is not JSON or not of the schema. */
export function parseStateText<S extends z.core.$ZodType>(
  text: string,
  schema: S,
  messages: StateFileMessages,
): z.infer<S> {
  const code = messages.code ?? 'bad_state';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CheckpointError(messages.notJson, code);
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) throw new CheckpointError(messages.notState, code);
  return parsed.data;
}

/** Writes a state object as indented JSON with {@link replaceFileAtomic} (mode 0600). */
export function writeStateFile(path: string, state: unknown): Promise<void> {
  return replaceFileAtomic(path, `${JSON.stringify(state, null, 2)}\n`);
}

/** How often a run pays for durability: whichever comes first. */
export interface SyncPolicy {
  /** Checkpoint after this many steps (pages, rows). Default 32; `Infinity` for time only. */
  everySteps?: number;
  /** Checkpoint when this many milliseconds passed since the last one. Default 1000. */
  everyMs?: number;
}

/** Defaults of {@link SyncPolicy}: 32 steps or 1 s. */
const DEFAULT_SYNC_POLICY: Required<SyncPolicy> = { everySteps: 32, everyMs: 1000 };

/**
 * Takes checkpoints without stopping the run. At a commit point the gathered bytes of every output
 * are written and the state is built at once (so it names exactly the bytes appended so far);
 * then, in the background, every output is fsynced and the state file replaced, while the caller
 * goes on appending. An fsync started after those bytes were written covers them, so a state file
 * still only names synced bytes. One commit runs at a time: a commit point reached while one is
 * running waits for it first. A failed background commit is kept and thrown by
 * every later {@link Checkpointer.step} and {@link Checkpointer.commit}, and no state is written
 * after it. {@link Checkpointer.commit} waits for the running commit, then commits in order.
 */
export class Checkpointer<S> {
  private steps = 0;
  private last: number;
  private readonly everySteps: number;
  private readonly everyMs: number;
  /** The commit running in the background; it never rejects (its error goes to `failure`). */
  private running: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly options: {
      /** Where the state goes; without it only the outputs are synced. */
      statePath: string | undefined;
      outputs: ReadonlyArray<DurableOutput | undefined>;
      /**
       * Builds the state at the commit point, describing everything appended so far; called
       * before the outputs are synced and written out later, so it must return a copy, not a
       * live object the run goes on changing.
       */
      state: () => S;
      policy?: SyncPolicy;
      /** Clock in ms. Default `Date.now`. */
      now?: () => number;
    },
  ) {
    this.everySteps = options.policy?.everySteps ?? DEFAULT_SYNC_POLICY.everySteps;
    this.everyMs = options.policy?.everyMs ?? DEFAULT_SYNC_POLICY.everyMs;
    this.last = this.now();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /**
   * Counts `count` steps (default 1: one row, page or event); when the policy says so, starts a
   * commit in the background (after the one still running, if any). Returns whether it started
   * one. Throws the error of a failed background commit.
   */
  async step(count = 1): Promise<boolean> {
    this.throwFailure();
    this.steps += count;
    if (this.steps < this.everySteps && this.now() - this.last < this.everyMs) return false;
    // Rare (a commit takes far less than a policy interval): wait, so commit points stay where the policy puts them.
    await this.settled();
    this.throwFailure();
    const finish = await this.capture();
    this.running = finish().then(
      () => {
        this.running = undefined;
      },
      (error: unknown) => {
        this.failure ??= { error };
        this.running = undefined;
      },
    );
    return true;
  }

  /**
   * Waits for the running commit, then syncs every output and replaces the state file, in order.
   * Throws the error of a failed background commit (without writing a state).
   */
  async commit(): Promise<void> {
    await this.settled();
    this.throwFailure();
    const finish = await this.capture();
    await finish();
  }

  /** Resolves when no commit runs in the background (never rejects). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private throwFailure(): void {
    if (this.failure) throw this.failure.error;
  }

  /** Writes what is gathered, builds the state now; returns the part that syncs and saves it. */
  private async capture(): Promise<() => Promise<void>> {
    const outputs = this.options.outputs;
    for (const output of outputs) await output?.flush();
    const { statePath } = this.options;
    const state = statePath ? this.options.state() : undefined;
    this.steps = 0;
    this.last = this.now();
    return async () => {
      for (const output of outputs) await output?.syncWritten();
      if (statePath) await writeStateFile(statePath, state);
    };
  }
}
