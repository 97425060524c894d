import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import type { SyncPolicy } from '../../src/node/fs/checkpoint.js';
import { exportAuditEvents } from '../../src/node/index.js';
import { useReferenceServer } from '../helpers/server.js';
import { pastRange } from './helpers.js';

const server = useReferenceServer();
let dir: string;
let client: SvcClient;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-audit-sync-'));
  client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
});
afterEach(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Saved {
  pages: number;
  bytes: number;
  complete: boolean;
}

/** Exports 1,000 events in pages of 100 and reads the state file (and the output size) after each page. */
async function observe(sync: SyncPolicy | undefined): Promise<{ seen: Saved[]; final: Saved }> {
  const range = pastRange(server().admin.now());
  server().admin.addAuditEvents({ count: 1000, ...range });
  const out = join(dir, 'audit.ndjson');
  const statePath = `${out}.state.json`;
  const seen: Saved[] = [];
  await exportAuditEvents(client.audit, {
    ...range,
    output: out,
    statePath,
    pageSize: 100,
    sync,
    onProgress: () => {
      const saved = JSON.parse(readFileSync(statePath, 'utf8')) as Saved;
      // The state never names bytes the output does not hold.
      expect(statSync(out).size).toBeGreaterThanOrEqual(saved.bytes);
      seen.push(saved);
    },
  });
  return { seen, final: JSON.parse(readFileSync(statePath, 'utf8')) as Saved };
}

describe('the export checkpoints in groups: every N pages or T ms, and always at the end', () => {
  it('everySteps 4: the state moves on every fourth page', async () => {
    const { seen, final } = await observe({ everySteps: 4, everyMs: 3_600_000 });
    // The state is saved in the background, so a page may still see the one before; never another count.
    const pages = seen.map((s) => s.pages);
    expect(pages.every((p) => [0, 4, 8, 10].includes(p))).toBe(true);
    expect(pages).toEqual([...pages].sort((a, b) => a - b));
    expect(pages.at(-1)).toBe(10);
    expect(final).toMatchObject({ pages: 10, complete: true });
  });

  it('the default step count is 32: a 10-page export checkpoints only at its start and end', async () => {
    const { seen, final } = await observe({ everyMs: 3_600_000 });
    expect(seen.map((s) => s.pages)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 10]);
    expect(final).toMatchObject({ pages: 10, complete: true });
  });
});
