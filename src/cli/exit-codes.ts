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
  /** `svc audit ship`: every event reached the destination or the dead-letter file, and some the dead-letter file. */
  DEAD_LETTERED: 6,
  /** Interrupted with a resumable state saved. */
  INTERRUPTED: 75,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each exit code means, in the words the command reference (`svc help reference`) uses. */
export const EXIT_MEANING: Readonly<Record<number, string>> = {
  [EXIT.OK]: 'success',
  [EXIT.FAILURE]: 'API, network or I/O failure',
  [EXIT.USAGE]: 'usage or local validation error; nothing was sent',
  [EXIT.REJECTED]: 'rejected',
  [EXIT.CHALLENGE]: 'needs an extra check, or not conclusive',
  [EXIT.INCOMPLETE]: 'written, but the archive is not whole',
  [EXIT.DEAD_LETTERED]: 'sent, but the destination refused some events (in the dead-letter file)',
  [EXIT.INTERRUPTED]: 'interrupted with a resumable state saved; run the same command again to continue',
  130: 'interrupted with nothing to resume, or a second interrupt',
};

/**
 * Exit codes a command gives beyond 0, 1 and 2 (which every command can give), with what they
 * mean for that command, or what 0, 1 or 2 mean for it when that differs. Shown in the command
 * reference; commands not listed give only 0, 1, 2.
 */
export const COMMAND_EXITS: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  validate: {
    [EXIT.REJECTED]: 'with --exit-status: the outcome is INVALID',
    [EXIT.CHALLENGE]:
      'with --exit-status: not conclusive (UNKNOWN, SOURCE_UNAVAILABLE, NOT_SUPPORTED, PENDING)',
  },
  batch: { [EXIT.INTERRUPTED]: EXIT_MEANING[EXIT.INTERRUPTED] as string },
  'audit export': { [EXIT.INTERRUPTED]: EXIT_MEANING[EXIT.INTERRUPTED] as string },
  'audit sync': {
    [EXIT.INCOMPLETE]: 'the run was written, but the archive is not whole (a gap, late events)',
    [EXIT.INTERRUPTED]: EXIT_MEANING[EXIT.INTERRUPTED] as string,
  },
  'audit ship': {
    [EXIT.OK]: 'every event of the range was created or was there already',
    [EXIT.DEAD_LETTERED]:
      'every event of the range was sent, and the destination refused some for good: they are in the dead-letter file, each with its reason',
    [EXIT.INTERRUPTED]: EXIT_MEANING[EXIT.INTERRUPTED] as string,
  },
  'audit verify': { 130: 'interrupted (Ctrl-C, SIGINT or SIGTERM)' },
  'audit gaps': { [EXIT.INCOMPLETE]: 'a gap is open (each open gap is listed)' },
  'audit copy': {
    [EXIT.INCOMPLETE]:
      'copied, but an object of the archive was left (not a regular file, gone from SRC; each named): DST is not the whole archive',
    130: 'interrupted (Ctrl-C, SIGINT or SIGTERM); the same copy again goes on where it stopped',
  },
  // Tail runs until stopped: stopping it is its normal end.
  'audit tail': { [EXIT.OK]: 'stopped by Ctrl-C, SIGINT or SIGTERM' },
  'captcha result': {
    [EXIT.REJECTED]: 'the bot check is rejected',
    [EXIT.CHALLENGE]: 'the bot check needs an extra check',
  },
  'captcha legacy': {
    [EXIT.REJECTED]: 'the bot check is rejected',
    [EXIT.CHALLENGE]: 'the bot check needs an extra check',
  },
  'token decode': { 130: 'interrupted while reading stdin (`-`)' },
  doctor: { [EXIT.FAILURE]: 'an API does not answer or does not accept its key' },
};
