import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';

// Inside a single executable the console's files come from the blob (node:sea, test/exe); every
// other runtime reads dist/assets, also one without node:sea at all.
const BUN = join(ROOT, 'node_modules', '.bin', 'bun');
const hasBun = existsSync(BUN);
if (!hasBun) {
  if (process.env.CI === 'true') throw new Error(`${BUN} is missing`);
  console.warn(`skipped: Bun is not installed (${BUN} is missing)`);
}

const dir = mkdtempSync(join(tmpdir(), 'svc-assets-bun-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => ensureBuilt(), 180_000);

describe.runIf(hasBun)(
  'the console and widget files outside a single executable: read from dist/assets',
  () => {
    it('a reference server under Bun (no node:sea there) serves them', () => {
      const script = join(dir, 'serve.ts');
      writeFileSync(
        script,
        `import { createReferenceServer } from ${JSON.stringify(join(ROOT, 'src', 'server', 'index.ts'))};
const server = await createReferenceServer();
const bodies: Record<string, string> = {};
for (const path of ['/__widget.js', '/__console/assets/console.js', '/__console/assets/console.css']) {
  const res = await fetch(server.url + path);
  bodies[path] = res.status + ' ' + (await res.text());
}
await server.close();
console.log(JSON.stringify(bodies));
`,
      );
      const run = spawnSync(BUN, [script], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      const asset = (name: string) => `200 ${readFileSync(join(ROOT, 'dist', 'assets', name), 'utf8')}`;
      expect(JSON.parse(run.stdout)).toEqual({
        '/__widget.js': asset('widget.js'),
        '/__console/assets/console.js': asset('console.js'),
        '/__console/assets/console.css': asset('console.css'),
      });
    }, 60_000);
  },
);
