/**
 * Keeps V8's young generation at its starting size for the rest of this CLI process. Set first
 * thing in `main` (growth during start-up would stay), for the commands that stream audit pages
 * (`audit export`, `audit sync`): each page leaves short-lived objects and socket buffers behind,
 * and by default V8 doubles the young generation again and again, so garbage (and the socket
 * buffers it holds) waits longer between collections. Measured on a 1M-event export: peak RSS
 * 117 MB -> 78 MB, CPU 3.5 s -> 2.8 s. Not for `batch`, whose rows live longer: there it made
 * collections copy more (a 200,000-row run took 3.45 s instead of 2.8 s). A flag of the process,
 * so only the CLI sets it (never the library, which lives in someone else's process); V8 reads
 * this one at each growth decision, so setting it after start-up takes effect.
 */
export async function keepYoungGenerationSmall(): Promise<void> {
  // Loaded here: every other command starts without node:v8.
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Whether the arguments name `audit export` or `audit sync`, read before commander parses them
 * (see {@link keepYoungGenerationSmall}). A word that only looks like one (an option's value) costs
 * nothing worse than a smaller young generation.
 */
export function streamsAuditPages(args: readonly string[]): boolean {
  const at = args.indexOf('audit');
  return at >= 0 && (args[at + 1] === 'export' || args[at + 1] === 'sync');
}

/**
 * Caps how much V8's old generation may grow between full collections (default: up to 4x the live
 * size for small heaps), for `batch`, whose live heap is small (about 20 MB at a million rows)
 * while nearly all it allocates is garbage that lives just long enough to be promoted:
 * - 30 % (`percent` default) for runs that read or write a workbook (exceljs' streaming reader:
 *   the heap grew to 335-450 MB on 100,000 rows; with this, 200 MB) and for `--wait` runs
 *   (webhook POSTs, confirmations, and with `--sandbox` the server's own requests: 100,000
 *   sandbox rows 381 -> 200 MB);
 * - 100 % for plain runs: 1,000,000 rows 213 -> 144 MB peak RSS for about 4 % more CPU (30 %
 *   cost about 10 %, which the throughput goal cannot spare).
 * Measured on the built CLI under load. A process flag, so only the CLI sets it; V8 reads it at
 * each limit computation.
 */
export async function keepOldGenerationTight(percent = 30): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
