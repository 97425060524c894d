import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { useReferenceServer } from '../helpers/server.js';
import { pastRange, startProxy } from './helpers.js';

const server = useReferenceServer();
let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'svc-audit-crash-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hasZcat(): boolean {
  try {
    execFileSync('zcat', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('svc audit export killed with SIGKILL, then run again with the same --state: byte-identical output', () => {
  // Checkpoints come every 32 pages (or each second): kill after the first group, so the state
  // names a partial output and the bytes after it must be truncated away. 80 pages: on a loaded
  // machine the first checkpoint may land pages after the 32nd, and the kill must still come
  // before the last.
  it.each([
    { name: 'NDJSON', gzip: false, count: 40_000, killAt: 41 },
    { name: 'gzip', gzip: true, count: 40_000, killAt: 37 },
  ])('$name: killed when request $killAt arrives, then resumed', async ({ gzip, count, killAt }) => {
    const range = pastRange(server().admin.now());
    server().admin.addAuditEvents({ count, ...range });
    const ext = gzip ? 'ndjson.gz' : 'ndjson';
    const args = [
      'audit',
      'export',
      '--from',
      range.from,
      '--to',
      range.to,
      '--page-size',
      '500',
      ...(gzip ? ['--gzip'] : []),
    ];
    const env = { SVC_API_KEY: 'ak_demo_project' };

    const clean = join(dir, `clean.${ext}`);
    const reference = spawnSvc([...args, '--out', clean, '--base-url', server().url], env);
    expect(await exited(reference)).toBe(0);

    const out = join(dir, `killed.${ext}`);
    const state = join(dir, `killed.${ext}.state`);
    let child: ReturnType<typeof spawnSvc> | undefined;
    // The export asks for the next page while it writes the current one, so the kill lands mid-write.
    // The state is saved in the background: the kill waits (from request killAt on) until it names
    // a partial output, so there is something after it to truncate.
    const partial = () => {
      try {
        return (JSON.parse(readFileSync(state, 'utf8')) as { events: number }).events > 0;
      } catch {
        return false;
      }
    };
    let killed = false;
    const proxy = await startProxy(server().url, (count) => {
      if (count >= killAt && !killed && partial()) {
        killed = true;
        child?.kill('SIGKILL');
      }
    });
    try {
      child = spawnSvc([...args, '--out', out, '--state', state, '--base-url', proxy.url], env);
      expect(await exited(child)).toBe('SIGKILL');
    } finally {
      await proxy.close();
    }
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { events: number; complete: boolean };
    expect(saved.complete).toBe(false);
    expect(saved.events).toBeGreaterThan(0);
    expect(saved.events).toBeLessThan(count);

    const resumed = spawnSvc([...args, '--out', out, '--state', state, '--base-url', server().url], env);
    expect(await exited(resumed)).toBe(0);
    expect(resumed.output().stderr).toMatch(new RegExp(`^exported ${count} events \\(resumed\\)`));
    expect(readFileSync(out).equals(readFileSync(clean))).toBe(true);
    if (gzip) {
      const text = gunzipSync(readFileSync(out)).toString('utf8');
      expect(text.split('\n')).toHaveLength(count + 1);
      if (hasZcat())
        expect(execFileSync('zcat', [out], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8')).toBe(text);
    }
  });
});
