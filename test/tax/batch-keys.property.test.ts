import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowIdempotencyKey } from '../../src/tax/batch/keys.js';

/** The documented canonical text: JSON with each object's keys in `Array.prototype.sort()` order. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .sort()
    .filter((key) => record[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`);
  return `{${members.join(',')}}`;
}

function expectedKey(runId: string, row: number, request: unknown): string {
  const hex = createHash('sha256')
    .update(`${runId}\n${row}\n${canonical(request)}`)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

describe('a row key hashes the row with its keys sorted as Array.prototype.sort() sorts them', () => {
  it('any keys (accents, case, symbols, up to 30 of them, nested) give the reference key', async () => {
    const key = fc.string({ unit: 'binary', maxLength: 6 });
    const leaf = fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.constant(undefined));
    const request = fc.dictionary(key, fc.oneof(leaf, fc.dictionary(key, leaf, { maxKeys: 30 })), {
      maxKeys: 30,
    });
    await fc.assert(
      fc.asyncProperty(request, fc.nat(1_000_000), async (value, row) => {
        expect(await rowIdempotencyKey('run', row, value)).toBe(expectedKey('run', row, value));
      }),
      { numRuns: 300 },
    );
  });
});
