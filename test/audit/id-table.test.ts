import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdTable } from '../../src/node/audit-archive/id-table.js';
import { idKey } from '../../src/node/audit-archive/window.js';

const key48 = fc.integer({ min: 0, max: 2 ** 48 - 1 });

describe('an IdTable keeps the first value stored for each 48-bit id key, as a Map would', () => {
  it('agrees with a Map over random keys and values, across growth', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key48, fc.integer({ min: 0, max: 2 ** 32 - 1 })), { maxLength: 3000 }),
        (ops) => {
          const table = new IdTable();
          const map = new Map<number, number>();
          for (const [key, value] of ops) {
            expect(table.firstOrAdd(key, value)).toBe(map.get(key));
            if (!map.has(key)) map.set(key, value);
          }
          expect(table.size).toBe(map.size);
          for (const [key, value] of map) expect(table.get(key)).toBe(value);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('tells apart keys that share their low 32 bits, or all but the top bits, and the extremes', () => {
    const table = new IdTable();
    const keys = [
      0,
      2 ** 32,
      2 ** 42,
      2 ** 47,
      2 ** 48 - 1,
      2 ** 32 - 1,
      5,
      5 + 2 ** 32,
      5 + 2 ** 42,
      5 + 2 ** 47,
    ];
    for (const [i, key] of keys.entries()) expect(table.firstOrAdd(key, i)).toBeUndefined();
    for (const [i, key] of keys.entries()) expect(table.get(key)).toBe(i);
    expect(table.get(7)).toBeUndefined();
    expect(table.size).toBe(keys.length);
  });

  it('holds 200,000 real id keys, each found with its value and none twice', () => {
    const table = new IdTable();
    let repeated = 0;
    for (let i = 0; i < 200_000; i++) if (table.firstOrAdd(idKey(`evt_${i}`), i) !== undefined) repeated += 1;
    expect(repeated).toBe(0);
    expect(table.size).toBe(200_000);
    for (let i = 0; i < 200_000; i += 97) expect(table.get(idKey(`evt_${i}`))).toBe(i);
    expect(table.firstOrAdd(idKey('evt_42'), 1)).toBe(42);
  });
});
