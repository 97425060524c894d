/** Exit codes of `svc`; the contract scripts and CI jobs rely on. */
export const EXIT = {
  /** Success; for bot checks: accepted. */
  OK: 0,
  /** API, network or I/O failure. */
  FAILURE: 1,
  /** Usage or local validation error; nothing was sent. */
  USAGE: 2,
  /** Bot check rejected. */
  REJECTED: 3,
  /** Bot check needs an extra check (e.g. a second factor). */
  CHALLENGE: 4,
  /** `svc audit sync`: the run was written, but the archive is not whole (retention gap, late events). */
  INCOMPLETE: 5,
  /** Interrupted with a resumable state saved. */
  INTERRUPTED: 75,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
