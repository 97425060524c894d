import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';

beforeAll(() => ensureBuilt(), 300_000);

describe("the README's setup: `npm run demo` runs the main jobs against --sandbox", () => {
  it('scripts/demo.js (what `npm run demo` runs after the build) ends with exit 0', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/demo.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, output.slice(-3000)).toBe(0);
  }, 180_000);
});
