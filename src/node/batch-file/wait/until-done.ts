import type { WaitProgress } from '../options.js';
import type { CompletionJoiner } from './joiner.js';

/** Default quiet period: reconciliation starts after 10 s without a completion. */
export const DEFAULT_QUIET_MS = 10_000;

/** How the waiting for outcomes ended. */
export type WaitEnd = 'done' | 'timeout' | 'aborted';

/** Options of {@link waitForOutcomes}. */
export interface WaitPhaseOptions {
  timeoutMs: number;
  /** Time without any completion after which the rows still waiting are reconciled. */
  quietMs: number;
  signal?: AbortSignal;
  /**
   * Asks the service about the rows still waiting; no new round after `deadline`; stops early
   * when `pause` (given for a quiet-period reconciliation) says so.
   */
  reconcile(deadline: number, pause?: (asked: number) => boolean): Promise<void>;
  onProgress?(event: WaitProgress): void;
}

type Wake = 'done' | 'quiet' | 'deadline' | 'abort';

/** Resolves when every row has its outcome, completions were quiet for `quietMs`, the deadline passed, or on abort. */
function nextWake(
  joiner: CompletionJoiner,
  quietMs: number,
  deadline: number,
  signal?: AbortSignal,
): Promise<Wake> {
  return new Promise<Wake>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (wake: Wake) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      joiner.onWake = () => {};
      resolve(wake);
    };
    const onAbort = () => finish('abort');
    // Re-armed only when it fires, so a million completions cost no timer work.
    const check = () => {
      if (joiner.outstanding === 0) return finish('done');
      const now = Date.now();
      if (now >= deadline) return finish('deadline');
      const quietAt = joiner.lastActivityAt + quietMs;
      if (now >= quietAt) return finish('quiet');
      timer = setTimeout(check, Math.min(quietAt, deadline) - now);
    };
    if (signal?.aborted) return finish('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
    joiner.onWake = () => {
      if (joiner.outstanding === 0) finish('done');
    };
    check();
  });
}

/**
 * Waits for the outcomes of the submitted rows: webhook completions as they come, and
 * reconciliation (the service asked through each row's idempotency key) when completions stop
 * for `quietMs`, right away for rows of an earlier run, and once more when `timeoutMs` is up.
 */
export async function waitForOutcomes(joiner: CompletionJoiner, options: WaitPhaseOptions): Promise<WaitEnd> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  const awaited = joiner.outstanding;
  const answeredBefore = joiner.answered;
  const report = () => {
    const done = joiner.answered - answeredBefore;
    const seconds = Math.max(Date.now() - started, 1) / 1000;
    options.onProgress?.({ type: 'outcomes', done, awaited, perSecond: Math.round(done / seconds) });
  };
  const previous = joiner.onActivity;
  joiner.onActivity = () => {
    previous();
    report();
    joiner.onWake();
  };
  try {
    report();
    if (joiner.stale > 0 && joiner.outstanding > 0) {
      options.onProgress?.({ type: 'reconciling', rows: joiner.outstanding, reason: 'resumed' });
      await options.reconcile(deadline);
    }
    while (joiner.outstanding > 0) {
      const wake = await nextWake(joiner, options.quietMs, deadline, options.signal);
      if (wake === 'abort') return 'aborted';
      if (wake === 'done') break;
      options.onProgress?.({
        type: 'reconciling',
        rows: joiner.outstanding,
        reason: wake === 'quiet' ? 'quiet' : 'timeout',
      });
      // At the deadline one last round: the rows still PENDING after it stay pending. A round
      // started by a quiet period stops when webhooks deliver more outcomes than it has asked
      // about: deliveries have resumed, and asking would only repeat them (under load a quiet
      // period can be a pause of a sender still working through its queue).
      const completionsBefore = joiner.completions;
      await options.reconcile(
        wake === 'deadline' ? 0 : deadline,
        wake === 'quiet' ? (asked) => joiner.completions - completionsBefore > asked : undefined,
      );
      if (options.signal?.aborted) return 'aborted';
      if (wake === 'deadline') break;
      // A round that ended with rows still waiting counts as activity: the next one waits a quiet period.
      joiner.lastActivityAt = Date.now();
    }
    await joiner.idle();
    return joiner.outstanding === 0 ? 'done' : 'timeout';
  } finally {
    joiner.onActivity = previous;
  }
}
