import { describe, expect, it } from 'vitest';
import { DeliveryQueue } from '../../src/server/tax/delivery-queue.js';

describe('the delivery queue is a FIFO of numbers that grows past any burst and keeps each field', () => {
  it('10,000 entries pushed and shifted in waves come out in order, fields intact', () => {
    const queue = new DeliveryQueue();
    const out: number[] = [];
    let next = 1;
    // Waves of pushes larger than the shifts make the ring wrap and then grow several times.
    for (let wave = 0; wave < 20; wave++) {
      for (let i = 0; i < 700 && next <= 10_000; i++, next++)
        queue.push(next, next * 3, next % 8, next * 1000);
      for (let i = 0; i < 300; i++) {
        const entry = queue.shift();
        if (!entry) break;
        expect(entry).toEqual({
          seq: entry.seq,
          eventSeq: entry.seq * 3,
          kind: entry.seq % 8,
          ref: entry.seq * 1000,
        });
        out.push(entry.seq);
      }
    }
    for (let entry = queue.shift(); entry; entry = queue.shift()) out.push(entry.seq);
    expect(out).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
    expect(queue.length).toBe(0);
  });
});
