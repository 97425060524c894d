/** The server's notion of time; tests move it instead of sleeping. */
export interface Clock {
  now(): number;
  /** Moves time forward by `ms`. */
  advance(ms: number): void;
  /** Jumps to an absolute time (ms since the epoch). */
  set(epochMs: number): void;
}

/** Wall time plus an offset that `advance` and `set` change. */
export function createClock(start?: number): Clock {
  let offset = start === undefined ? 0 : start - Date.now();
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      offset += ms;
    },
    set(epochMs) {
      offset = epochMs - Date.now();
    },
  };
}
