import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PrecheckMode } from '../../src/tax/enums.js';
import { precheck } from '../../src/tax/precheck/index.js';
import { validDe } from '../helpers/batch-data.js';
import { useTestClients } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const client = useTestClients(server);

const COUNTRIES = ['DE', 'AT', 'FR', 'NL', 'BE', 'IT', 'ES', 'GR', 'EL', 'XI', 'GB', 'CH', 'NO', 'AU', 'US'];

/** IDs of every shape: valid ones, valid ones with a digit changed or cut, and random text. */
const id = fc.oneof(
  fc.integer({ min: 1, max: 89_999_999 }).map((n) => validDe(n)),
  fc.tuple(fc.integer({ min: 1, max: 89_999_999 }), fc.nat(8), fc.nat(9)).map(([n, at, d]) => {
    const v = validDe(n);
    return v.slice(0, at) + String(d) + v.slice(at + 1);
  }),
  fc.integer({ min: 1, max: 89_999_999 }).map((n) => `DE${validDe(n).slice(0, 5)}`),
  fc.stringMatching(/^[A-Z]{0,3}[0-9 .-]{0,14}[A-Z]{0,2}$/),
  fc.stringMatching(/^[0-9]{1,24}$/),
);

/** What `svc precheck` calls each ID, and whether a batch in `mode` refused it locally. */
async function judged(mode: PrecheckMode, ids: Array<[string, string]>) {
  const rows = ids.map(([countryCode, rawValue]) => ({ countryCode, rawValue }));
  const out: Array<{ code: string; refused: boolean }> = [];
  for await (const r of client().tax.runBatch(rows, { precheck: mode, chunkSize: 200 })) {
    const [countryCode, rawValue] = ids[r.row - 1] as [string, string];
    out.push({
      code: precheck(countryCode, rawValue).code,
      refused: r.status === 'rejected' && r.code !== 'SERVER_422',
    });
  }
  return out;
}

describe('the default pre-check refuses exactly what svc precheck calls FORMAT or LENGTH', () => {
  it('over generated IDs of many countries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...COUNTRIES), id), { minLength: 1, maxLength: 60 }),
        async (ids) => {
          for (const { code, refused } of await judged('structural', ids))
            expect(refused).toBe(code === 'FORMAT' || code === 'LENGTH');
        },
      ),
      { numRuns: 25, seed: 2222 },
    );
  });

  it('DE12345 is refused without a registry call', async () => {
    const [row] = await judged('structural', [['DE', 'DE12345']]);
    expect(row).toEqual({ code: 'FORMAT', refused: true });
    expect(server().admin.stats().validationsProcessed).toBe(0);
  });
});

describe('the strict pre-check refuses exactly what svc precheck refuses', () => {
  it('over generated IDs of many countries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...COUNTRIES), id), { minLength: 1, maxLength: 60 }),
        async (ids) => {
          for (const { code, refused } of await judged('strict', ids))
            expect(refused).toBe(code !== 'OK' && code !== 'UNSUPPORTED_COUNTRY');
        },
      ),
      { numRuns: 25, seed: 3333 },
    );
  });
});

describe('with --precheck off only the schema refuses', () => {
  it('a wrong-shaped but non-empty ID is sent', async () => {
    const [row] = await judged('off', [['DE', 'DE12345']]);
    expect(row?.refused).toBe(false);
  });
});
