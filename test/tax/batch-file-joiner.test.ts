import { describe, expect, it } from 'vitest';
import type { BatchRowResult } from '../../src/tax/batch/types.js';
import { CompletionJoiner, MAX_CONFIRMATIONS } from '../../src/tax/batch-file/completion-joiner.js';
import type { ValidationResult } from '../../src/tax/response-schemas.js';

describe('confirmations (getResult after a webhook) run with bounded concurrency', () => {
  it('a burst of 200 completions: at most 16 fetches in flight, every row completed with its details', async () => {
    let inFlight = 0;
    let peak = 0;
    const release: Array<() => void> = [];
    const joiner = new CompletionJoiner({
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
    });
    const rows: BatchRowResult[] = Array.from({ length: 200 }, (_, i) => ({
      row: i + 1,
      status: 'submitted',
      validationRequestId: `req-res-${i}`,
    }));
    for (const row of rows) joiner.track(row);
    for (let i = 0; i < 200; i++) joiner.confirm(`res-${i}`);
    const done = joiner.wait(60_000);
    // Release fetches as they start, until every one has run.
    while (rows.some((r) => r.status !== 'completed')) {
      await new Promise((resolve) => setImmediate(resolve));
      for (const go of release.splice(0)) go();
    }
    await done;
    expect(peak).toBe(MAX_CONFIRMATIONS);
    expect(joiner.peakFetches).toBe(MAX_CONFIRMATIONS);
    expect(rows[7]).toMatchObject({
      status: 'completed',
      outcome: 'VALID',
      registryCompanyName: 'Registry res-7',
      companyNameMatch: 'MATCH',
      checkedAt: '2026-11-23T08:00:00Z',
    });
  });
});
