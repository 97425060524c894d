import { describe, expect, it } from 'vitest';
import type { RowOutcome } from '../../src/node/batch-file/state/journal.js';
import {
  CompletionJoiner,
  MAX_CONFIRMATIONS,
  MAX_QUEUED_CONFIRMATIONS,
} from '../../src/node/batch-file/wait/joiner.js';
import type { ValidationResult } from '../../src/tax/response-schemas.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A joiner whose getResult calls wait until released. */
function gatedJoiner() {
  let inFlight = 0;
  let peak = 0;
  const release: Array<() => void> = [];
  const outcomes = new Map<number, RowOutcome[]>();
  const joiner = new CompletionJoiner(
    {
      getResult: async (id) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise<void>((resolve) => release.push(resolve));
        inFlight -= 1;
        return {
          validationRequestId: `req-${id}`,
          validationResultId: id,
          status: 'COMPLETED',
          outcome: 'VALID',
          provider: 'VIES',
          match: { companyName: 'MATCH' },
          responseData: { companyName: `Registry ${id}` },
          checkedAt: '2026-11-23T08:00:00Z',
        } as ValidationResult;
      },
    },
    { onOutcome: (row, outcome) => outcomes.set(row, [...(outcomes.get(row) ?? []), outcome]) },
  );
  return { joiner, release, outcomes, peak: () => peak };
}

describe('confirmations (getResult after a webhook) run with bounded concurrency', () => {
  it('a burst of 200 completions: at most 16 fetches in flight, every row completed with its details', async () => {
    const { joiner, release, outcomes, peak } = gatedJoiner();
    for (let i = 0; i < 200; i++) joiner.track(i + 1, `req-res-${i}`);
    for (let i = 0; i < 200; i++) void joiner.confirm(`res-${i}`);
    while (joiner.outstanding > 0) {
      await turn();
      for (const go of release.splice(0)) go();
    }
    expect(peak()).toBe(MAX_CONFIRMATIONS);
    expect(joiner.peakFetches).toBe(MAX_CONFIRMATIONS);
    expect(outcomes.get(8)).toEqual([
      {
        status: 'completed',
        validationResultId: 'res-7',
        outcome: 'VALID',
        provider: 'VIES',
        registryCompanyName: 'Registry res-7',
        companyNameMatch: 'MATCH',
        checkedAt: '2026-11-23T08:00:00Z',
      },
    ]);
  });
});

describe('the confirmation queue is bounded: past it the webhook answer waits (backpressure)', () => {
  it('with 16 in flight and 1024 queued, the next confirm resolves only once a slot frees', async () => {
    const { joiner, release } = gatedJoiner();
    const accepted: boolean[] = [];
    const total = MAX_CONFIRMATIONS + MAX_QUEUED_CONFIRMATIONS + 1;
    for (let i = 0; i < total; i++) void joiner.confirm(`res-${i}`).then(() => accepted.push(true));
    await turn();
    expect(accepted).toHaveLength(total - 1);
    release.shift()?.();
    await turn();
    await turn();
    expect(accepted).toHaveLength(total);
    await joiner.close();
  });
});

describe('a duplicate completion never answers a row twice', () => {
  it('the same event three times: one outcome', async () => {
    const { joiner, release, outcomes } = gatedJoiner();
    joiner.track(1, 'req-res-1');
    for (let i = 0; i < 3; i++) void joiner.confirm('res-1');
    while (release.length < 3) await turn();
    for (const go of release.splice(0)) go();
    await joiner.idle();
    expect(outcomes.get(1)).toHaveLength(1);
    expect(joiner.answered).toBe(1);
  });

  it('an outcome that comes before its row is tracked is kept and joined once the row is', async () => {
    const { joiner, release, outcomes } = gatedJoiner();
    void joiner.confirm('res-5');
    while (release.length < 1) await turn();
    release.shift()?.();
    await joiner.idle();
    expect(outcomes.size).toBe(0);
    joiner.track(5, 'req-res-5');
    expect(outcomes.get(5)?.[0]).toMatchObject({ status: 'completed', validationResultId: 'res-5' });
    expect(joiner.outstanding).toBe(0);
  });
});
