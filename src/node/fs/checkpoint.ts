import { type FileHandle, readFile } from 'node:fs/promises';
import * as z from 'zod/mini';
import { replaceFileAtomic } from './atomic-file.js';
import { openOutput, writeFailure } from './output-file.js';

/**
 * The one checkpoint module: a state file replaced atomically, append-only outputs made durable
 * before a state names their size, outputs cut back to that size on resume, and the policy that
 * decides how often to pay for an fsync. Audit export and batch file runs both use it.
 *
 * The contract: a state file only ever names output bytes that were fsynced before it was
 * written. A crash at any moment leaves the last state and outputs at least as long as it says;
 * a resume truncates them to the recorded sizes and continues, so nothing is repeated or lost.
 */

import { CheckpointError } from '../../core/errors/error-classes.js';

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

/** Chunks smaller than this are gathered in memory and written together. */
const GATHER_BYTES = 64 * 1024;

/**
 * An append-only output file. Appends are written in order (small ones gathered first);
 * {@link DurableOutput.sync} writes what is gathered and fsyncs, after which `size` bytes are on
 * disk. Nothing is synced on append: the caller decides when, through a {@link SyncSchedule}.
 */
export class DurableOutput {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private written: number;
  /** Writes finished so far, and how many of them the last fsync covered. */
  private writes = 0;
  private syncedWrites = 0;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    start: number,
    /** False for a device or FIFO: written in order, never synced, truncated or resumed. */
    readonly seekable: boolean,
  ) {
    this.written = start;
  }

  /**
   * Opens an output (through `openOutput` of core/output-file.ts: never through a symbolic link
   * to a file, created exclusively with `options.mode`, default 0600). Without `resumeAt` the file
   * is created, or emptied when it is empty already or `options.force` is set (a file with data
   * is an `OutputPathError` otherwise); with it, the file must exist and hold at least that many
   * bytes, and is cut back to exactly that many (dropping what a crash left after the last
   * checkpoint); those errors are {@link CheckpointError} `resume_failed`. A device or FIFO
   * (`/dev/stdout`) is a stream: written in order, never synced, truncated or resumed
   * (`seekable` false).
   */
  static async open(
    path: string,
    resumeAt?: number,
    options: { force?: boolean; mode?: number } = {},
  ): Promise<DurableOutput> {
    if (resumeAt === undefined) {
      const { handle, seekable } = await openOutput(path, { ...options, resume: false });
      return new DurableOutput(path, handle, 0, seekable);
    }
    let handle: FileHandle;
    try {
      ({ handle } = await openOutput(path, { resume: true }));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new CheckpointError(
          `Cannot resume: the output ${path} is missing; delete the state file to start over`,
          'resume_failed',
        );
      }
      throw error;
    }
    const { size } = await handle.stat();
    if (size < resumeAt) {
      await handle.close();
      throw new CheckpointError(
        `Cannot resume: ${path} holds ${size} bytes but the state file records ${resumeAt}; delete the state file to start over`,
        'resume_failed',
      );
    }
    await handle.truncate(resumeAt);
    await handle.sync();
    return new DurableOutput(path, handle, resumeAt, true);
  }

  /** Bytes appended so far, durable or not. */
  get size(): number {
    return this.written + this.pendingBytes;
  }

  /** Appends a chunk; the caller may reuse a `Uint8Array` chunk once the promise settles. */
  async append(chunk: string | Uint8Array): Promise<void> {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (bytes.length < GATHER_BYTES) {
      this.pending.push(typeof chunk === 'string' ? (bytes as Buffer) : Buffer.from(bytes));
      this.pendingBytes += bytes.length;
      if (this.pendingBytes >= GATHER_BYTES) await this.flush();
      return;
    }
    await this.flush();
    await this.writeAll(bytes);
  }

  /** Writes what is gathered (no fsync). */
  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const data = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    await this.writeAll(data);
  }

  private async writeAll(data: Uint8Array): Promise<void> {
    let done = 0;
    try {
      while (done < data.length) {
        const at = this.seekable ? this.written + done : null;
        const { bytesWritten } = await this.handle.write(data, done, data.length - done, at);
        done += bytesWritten;
      }
    } catch (error) {
      throw writeFailure(this.path, error);
    }
    this.written += data.length;
    this.writes += 1;
  }

  /** Writes what is gathered and fsyncs; returns the size now durable. */
  async sync(): Promise<number> {
    await this.flush();
    return this.syncWritten();
  }

  /**
   * Fsyncs the bytes written so far (not those still gathered: {@link DurableOutput.flush} them
   * first) and returns how many that is. Only reads the size and the handle, so appends may go on
   * while it runs: a later write lands past the returned size, and the fsync may cover it too.
   */
  async syncWritten(): Promise<number> {
    const size = this.written;
    const writes = this.writes;
    if (writes !== this.syncedWrites && this.seekable) {
      try {
        await this.handle.datasync();
      } catch (error) {
        throw writeFailure(this.path, error);
      }
    }
    this.syncedWrites = Math.max(this.syncedWrites, writes);
    return size;
  }

  /** Syncs and closes; closing again does nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.sync();
    } finally {
      await this.handle.close();
    }
  }
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
