import { describe, expect, it } from 'vitest';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { runSvc } from '../helpers/cli.js';

describe('audit tail refuses an --interval under 1 s (exit 2), before anything is sent', () => {
  it.each(['0', '0.5', '0.999'])('--interval %s', async (interval) => {
    const run = await runSvc(['--base-url', 'http://127.0.0.1:9', 'audit', 'tail', '--interval', interval]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `svc: --interval must be at least 1 s, got ${interval} (a shorter pause polls the service non-stop)\n`,
    );
  });

  it('the built svc: --interval 0 exits 2', async () => {
    ensureBuilt();
    const child = spawnSvc(['--sandbox', 'audit', 'tail', '--interval', '0'], {});
    expect(await exited(child)).toBe(2);
    expect(child.output().stderr).toMatch(/^svc: --interval must be at least 1 s/);
  }, 180_000);
});
