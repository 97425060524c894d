import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS } from '../../src/botcheck/test-ids.js';
import { ROOT } from '../helpers/build.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';

const run = promisify(execFile);

beforeAll(() => ensureBuilt(), 180_000);

describe('the sandbox test id without the test key says which key the test ids need', () => {
  it('svc --sandbox captcha result <passed test id> with the demo key: 404 naming the test key', async () => {
    const child = spawnSvc(['--sandbox', 'captcha', 'result', TEST_VERIFICATION_IDS.passed], {});
    expect(await exited(child)).toBe(1);
    expect(child.output().stderr).toMatch(
      /^svc: 404 .*the test ids answer only to the test key, ak_ followed by 49 x/,
    );
  });
});

describe("the README's sandbox example with the test key works in a POSIX shell", () => {
  it('runs the line from the README under sh', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const line = readme
      .split('\n')
      .find((l) => l.includes('captcha result 00000000-0000-0000-0000-000000000000'));
    expect(line).toBeDefined();
    // The README writes `svc`; in a checkout that is `node bin/svc.js`.
    const command = `${(line as string).replace(/#.*$/, '').replace(/^svc /, 'node bin/svc.js ')} -o json`;
    const { stdout } = await run('sh', ['-c', command], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    expect(JSON.parse(stdout)).toMatchObject({ decision: 'accept', result: { verificationPassed: true } });
  });
});
