import { describe, expect, it } from 'vitest';
import { RequestIndex } from '../../src/node/batch-file/state/request-index.js';

const id = (i: number) =>
  `valreq_${i.toString(16).padStart(8, '0')}-0000-4000-8000-${String(i).padStart(12, '0')}`;

describe('the request index maps request ids to rows in fixed-size typed arrays', () => {
  it('200,000 ids: each found, removed ones gone, survivors kept across rehashes', () => {
    const index = new RequestIndex(16);
    for (let i = 1; i <= 200_000; i++) index.set(id(i), i);
    expect(index.size).toBe(200_000);
    for (let i = 1; i <= 200_000; i += 997) expect(index.get(id(i))).toBe(i);
    for (let i = 1; i <= 200_000; i += 2) expect(index.delete(id(i))).toBe(true);
    expect(index.size).toBe(100_000);
    expect(index.get(id(1))).toBeUndefined();
    expect(index.delete(id(1))).toBe(false);
    // New entries after many removals (rehash without growth) keep the old ones findable.
    for (let i = 200_001; i <= 300_000; i++) index.set(id(i), i);
    for (let i = 2; i <= 300_000; i += 1999)
      expect(index.get(id(i))).toBe(i % 2 === 0 || i > 200_000 ? i : undefined);
    expect(index.get('valreq_unknown')).toBeUndefined();
  });

  it('setting an id again replaces its row without a second entry', () => {
    const index = new RequestIndex();
    index.set('a', 1);
    index.set('a', 2);
    expect(index.size).toBe(1);
    expect(index.get('a')).toBe(2);
  });
});
