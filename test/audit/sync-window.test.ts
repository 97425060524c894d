import { describe, expect, it } from 'vitest';
import { SyncStateSchema } from '../../src/node/audit-archive/state.js';
import { contentKey, EventWindow, idKey, WindowBuilder } from '../../src/node/audit-archive/window.js';

describe('bounded state: the overlap window of 1,000,000 events keeps the sync state under 20 MB', () => {
  it('encodes 1,000,000 events in under 20 MB of state and finds each id with its content', {
    timeout: 120_000,
  }, () => {
    const start = Date.parse('2026-03-02T12:00:00.000Z');
    const n = 1_000_000;
    // Distinct 48-bit id keys and 32-bit content keys, as the hashes give them (hashing is not what is measured).
    const key = (i: number) => (i * 2_654_435_761) % 2 ** 48;
    const builder = new WindowBuilder();
    for (let i = 0; i < n; i++) builder.push(start + (i % 600_000), key(i), i);
    const window = builder.build(start);
    const state = `${JSON.stringify({ version: 1, window: window.encode() }, null, 2)}\n`;
    expect(state.length).toBeLessThan(20_000_000);
    const back = EventWindow.decode(start, window.encode());
    expect(back.size).toBe(n);
    for (const i of [0, 1, 4242, 999_999]) expect(back.content(key(i))).toBe(i);
    expect(back.content(key(n))).toBeUndefined();
    expect(back.content(idKey('evt_1'))).toBeUndefined();
    expect(contentKey('a')).not.toBe(contentKey('b'));
  });

  it('drops events before the window start; reads a state of the older id-list form', () => {
    const start = 1_000_000;
    const window = EventWindow.of(start, [
      { occ: start - 1, id: 1, content: 1 },
      { occ: start, id: 2, content: 2 },
    ]);
    expect([...window.events()]).toEqual([{ occ: start, id: 2, content: 2 }]);
    const legacy = SyncStateSchema().parse({
      version: 1,
      runs: 1,
      watermark: null,
      lastManifest: null,
      recent: [{ id: 'a', occurredAt: '2026-01-01T00:00:00.000Z' }],
      newest: null,
      ranges: [],
      pending: null,
    });
    expect(legacy.window).toBe('');
  });
});
