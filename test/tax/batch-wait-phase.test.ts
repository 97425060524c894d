import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CompletionJoiner } from '../../src/node/batch-file/wait/joiner.js';
import { type RowRequest, reconcile } from '../../src/node/batch-file/wait/reconcile.js';
import { waitForOutcomes } from '../../src/node/batch-file/wait/until-done.js';
import type { ValidationResult } from '../../src/tax/response-schemas.js';

const ROWS = 200;

const resultOf = (row: number): ValidationResult =>
  ({
    validationRequestId: `req-${row}`,
    validationResultId: `res-${row}`,
    status: 'COMPLETED',
    outcome: 'VALID',
    provider: 'VIES',
  }) as ValidationResult;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * ROWS rows waiting; webhooks stop for 10 s (a quiet period), then the sender resumes and
 * delivers 2 completions a millisecond, in row order. Each reconciliation request takes 5 ms.
 */
async function quietThenResumed() {
  const joiner = new CompletionJoiner(
    { getResult: async (id) => resultOf(Number(id.slice('res-'.length))) },
    { onOutcome: () => {} },
  );
  for (let row = 1; row <= ROWS; row++) joiner.track(row, `req-${row}`);
  const asked: number[] = [];
  let next = 1;
  setTimeout(() => {
    const sender = setInterval(() => {
      for (let k = 0; k < 2 && next <= ROWS; k++) void joiner.received(`res-${next++}`);
      if (next > ROWS) clearInterval(sender);
    }, 1);
  }, 10_000);
  const tax = {
    validate: async (params: { idempotencyKey?: string }) => {
      asked.push(Number(String(params.idempotencyKey).slice(1)));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const result = resultOf(Number(String(params.idempotencyKey).slice(1)));
      return { kind: 'completed' as const, result };
    },
  };
  async function* requests(rows: readonly number[]): AsyncGenerator<RowRequest> {
    for (const row of rows)
      yield { row, request: { countryCode: 'DE', rawValue: '136695976', idempotencyKey: `k${row}` } };
  }
  const done = waitForOutcomes(joiner, {
    timeoutMs: 3_600_000,
    quietMs: 10_000,
    reconcile: (deadline, pause) =>
      reconcile(tax as never, joiner, { requests, concurrency: 1, backoffMs: 1000, deadline, pause }),
  });
  await vi.advanceTimersByTimeAsync(11_000);
  return { end: await done, joiner, asked };
}

describe('a reconciliation started by a quiet period stops when webhooks resume', () => {
  it('asks about one row, not about every row the resumed webhooks answer anyway', async () => {
    const { end, joiner, asked } = await quietThenResumed();
    expect(end).toBe('done');
    expect(joiner.outstanding).toBe(0);
    expect(joiner.answered).toBe(ROWS);
    // Without the rule the round keeps asking, one row ahead of the webhooks, about 20 times.
    expect(asked).toEqual([1]);
  });
});
