/** The server's notion of time; tests move it instead of sleeping. */
export interface Clock {
  /** The server's now, in epoch milliseconds. */
  now(): number;
  /** Moves time forward by `ms`. */
  advance(ms: number): void;
  /** Jumps to an absolute time (ms since the epoch). */
  set(epochMs: number): void;
  /** Stops (true) or resumes (false) the passing of wall time; `advance` and `set` still move it. */
  freeze(frozen: boolean): void;
}

/** Wall time plus an offset that `advance` and `set` change; optionally frozen. */
export function createClock(start?: number, options: { frozen?: boolean } = {}): Clock {
  let offset = start === undefined ? 0 : start - Date.now();
  let frozenAt: number | undefined = options.frozen ? Date.now() + offset : undefined;
  return {
    now: () => frozenAt ?? Date.now() + offset,
    advance(ms) {
      if (frozenAt !== undefined) frozenAt += ms;
      else offset += ms;
    },
    set(epochMs) {
      if (frozenAt !== undefined) frozenAt = epochMs;
      else offset = epochMs - Date.now();
    },
    freeze(frozen) {
      if (frozen && frozenAt === undefined) frozenAt = Date.now() + offset;
      if (!frozen && frozenAt !== undefined) {
        offset = frozenAt - Date.now();
        frozenAt = undefined;
      }
    },
  };
}
