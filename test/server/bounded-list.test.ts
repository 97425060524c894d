import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedList } from '../../src/server/bounded-list.js';

describe('BoundedList keeps the last max items pushed, oldest first', () => {
  it('matches the tail of everything pushed, at every length, across compactions', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 100 }), (max, pushes) => {
        const list = new BoundedList<number>(max);
        for (let i = 0; i < pushes; i++) {
          list.push(i);
          const expected = Array.from({ length: i + 1 }, (_, k) => k).slice(-max);
          expect(list.toArray()).toEqual(expected);
          expect(list.length).toBe(expected.length);
          expect(list.oldest).toBe(expected[0]);
        }
      }),
    );
  });

  it('clear forgets every item, and pushing starts over', () => {
    const list = new BoundedList<string>(2);
    for (const item of ['a', 'b', 'c']) list.push(item);
    list.clear();
    expect(list.toArray()).toEqual([]);
    expect(list.oldest).toBeUndefined();
    list.push('d');
    expect(list.toArray()).toEqual(['d']);
  });

  it('holds at most twice max items in memory under a flood', () => {
    const list = new BoundedList<number>(1000);
    for (let i = 0; i < 100_000; i++) list.push(i);
    const held = (list as unknown as { items: number[] }).items.length;
    expect(held).toBeLessThanOrEqual(2000);
    expect(list.toArray().at(-1)).toBe(99_999);
  });
});

describe('BoundedList with maxWeight keeps the newest items whose weights fit, and always the newest one', () => {
  it('matches the longest tail within both bounds, at every push', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 100 }),
        fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 100 }),
        (max, maxWeight, weights) => {
          const list = new BoundedList<number>(max, maxWeight);
          weights.forEach((weight, i) => {
            list.push(i, weight);
            let keep = 1;
            let sum = weights[i] ?? 0;
            while (keep < max && keep <= i && sum + (weights[i - keep] ?? 0) <= maxWeight) {
              sum += weights[i - keep] ?? 0;
              keep += 1;
            }
            const expected = Array.from({ length: keep }, (_, k) => i - keep + 1 + k);
            expect(list.toArray()).toEqual(expected);
            expect(list.weight).toBe(sum);
          });
        },
      ),
    );
  });
});
