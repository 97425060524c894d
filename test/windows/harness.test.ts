import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { nodeSvc, useWinePrefix, WINDOWS_NODE, WINE_TEST_TIMEOUT, wineMissing } from '../helpers/windows.js';

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe.skipIf(wineMissing)(
  'the Wine harness runs Windows programs as Windows runs them',
  { timeout: WINE_TEST_TIMEOUT },
  () => {
    const wine = useWinePrefix();
    beforeAll(() => ensureBuilt(), 120_000);

    it('Windows Node sees win32, a time zone of UTC and %APPDATA% inside the private prefix', async () => {
      const run = await wine().exec(WINDOWS_NODE, [
        '-e',
        'console.log(JSON.stringify([process.platform, Intl.DateTimeFormat().resolvedOptions().timeZone, process.env.APPDATA]))',
      ]);
      expect(run.stderr).toBe('');
      const [platform, zone, appData] = JSON.parse(run.stdout) as string[];
      expect(platform).toBe('win32');
      expect(zone).toBe('UTC');
      expect(appData).toMatch(/^C:\\users\\[^\\]+\\AppData\\Roaming$/);
    });

    it('runs the built CLI: `svc --version` prints the package version', async () => {
      const run = await wine().svc(nodeSvc(), ['--version']);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout.trim()).toBe(version);
    });

    it('hands standard input over from a file: `svc token decode -` reads it', async () => {
      const token = Buffer.from(
        JSON.stringify({ verificationId: '00000000-0000-0000-0000-000000000000' }),
      ).toString('base64');
      const run = await wine().svc(nodeSvc(), ['-o', 'json', 'token', 'decode', '-'], {
        input: `${token}\r\n`,
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        verificationId: '00000000-0000-0000-0000-000000000000',
      });
    });
  },
);
