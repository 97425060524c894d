import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/build.js';
import { lines, runBin } from '../helpers/run-bin.js';

beforeAll(() => {
  ensureBuilt();
});

describe('a rawValue is at most 64 characters as sent: the built svc refuses a longer one locally (exit 2)', () => {
  it('svc --sandbox validate DE "DE136695976<100 KB of spaces>": one line naming rawValue, nothing on stdout', async () => {
    // 100 KB fits one argument on Linux (128 KiB each); the value normalises to a valid ID.
    const run = await runBin(['--sandbox', 'validate', 'DE', `DE136695976${' '.repeat(100_000)}`]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/rawValue: must be at most 64 characters as sent/);
  });
});
