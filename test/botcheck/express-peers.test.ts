import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';

// The runtime side (an Express 4 and an Express 5 app) is in adapters.test.ts; here the types of
// svc-sdk/express compile in an app that has either version's types installed as `express`.
const MODULES = join(ROOT, 'node_modules');

describe.each([
  ['Express 4', '@types/express4'],
  ['Express 5', '@types/express'],
])('Express peers ^4.21 || ^5: svc-sdk/express type-checks in an %s app', (_, types) => {
  it('requireHuman is a handler of that version, and req.botCheck is typed', () => {
    ensureBuilt();
    const app = mkdtempSync(join(tmpdir(), 'svc-express-peer-'));
    try {
      // An installed package (not a link to this repository), so its 'express' is the app's.
      const installed = join(app, 'node_modules', 'svc-sdk');
      mkdirSync(installed, { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(installed, 'package.json'));
      cpSync(join(ROOT, 'dist'), join(installed, 'dist'), { recursive: true });
      mkdirSync(join(app, 'node_modules', '@types'));
      symlinkSync(join(MODULES, types), join(app, 'node_modules', '@types', 'express'), 'dir');
      symlinkSync(join(MODULES, '@types', 'node'), join(app, 'node_modules', '@types', 'node'), 'dir');
      symlinkSync(join(MODULES, 'zod'), join(app, 'node_modules', 'zod'), 'dir');
      writeFileSync(join(app, 'package.json'), JSON.stringify({ type: 'module', private: true }));
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            module: 'nodenext',
            moduleResolution: 'nodenext',
            strict: true,
            noEmit: true,
            types: ['node', 'express'],
          },
          files: ['app.ts', 'wrong.ts'],
        }),
      );
      const mount = (handler: string) =>
        [
          "import type { Express, RequestHandler } from 'express';",
          "import { requireHuman } from 'svc-sdk/express';",
          "import type { BotCheckClients } from 'svc-sdk/botcheck';",
          'export function mount(app: Express, client: BotCheckClients): void {',
          '  const guard: RequestHandler = requireHuman(client, { failOpen: false });',
          `  app.post('/contact', guard, ${handler});`,
          '}',
        ].join('\n');
      writeFileSync(
        join(app, 'app.ts'),
        mount('(req, res) => { res.json({ decision: req.botCheck?.decision }); }'),
      );
      // The check can fail: a field the outcome does not have is an error, in that file only.
      writeFileSync(
        join(app, 'wrong.ts'),
        mount('(req, res) => { res.json({ decision: req.botCheck?.verdict }); }'),
      );
      let output = '';
      try {
        execFileSync(process.execPath, [join(MODULES, 'typescript', 'bin', 'tsc'), '-p', app], {
          encoding: 'utf8',
          stdio: 'pipe',
        });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout);
      }
      const errors = output.split('\n').filter((line) => line.includes('error TS'));
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.filter((line) => !line.includes('wrong.ts('))).toEqual([]);
      expect(output).toContain("Property 'verdict' does not exist");
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  }, 300_000);
});
