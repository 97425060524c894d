import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openConfig } from '../../src/cli/config-store.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-config-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// conf's file writer (atomically -> when-exit) hooks SIGINT/SIGTERM on import and re-sends the
// signal, which turned exit 75 into 130. Loading the config store must leave those signals to svc.
describe('opening the config store adds no SIGINT or SIGTERM listener', () => {
  it('listener counts are unchanged, and the store still reads and writes', async () => {
    const before = { int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') };
    const store = await openConfig({ XDG_CONFIG_HOME: dir });
    store.set('default', 'output', 'json');
    expect(store.get('default', 'output')).toBe('json');
    await openConfig({ XDG_CONFIG_HOME: dir });
    expect({ int: process.listenerCount('SIGINT'), term: process.listenerCount('SIGTERM') }).toEqual(before);
  });
});
