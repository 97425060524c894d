import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';

const run = promisify(execFile);

beforeAll(() => ensureBuilt(), 300_000);

describe('docs/api-report.md lists the public surface of every entry', () => {
  it('is what scripts/api-report.js makes of the built declarations (run `npm run docs` after changing an export)', async () => {
    const check = await run(process.execPath, [join(ROOT, 'scripts/api-report.js'), '--check'], {
      cwd: ROOT,
    }).then(
      () => 0,
      (error: { code?: number; stderr?: string }) => {
        console.error(error.stderr);
        return error.code ?? 1;
      },
    );
    expect(check).toBe(0);
  }, 120_000);
});

describe('the library reference (TypeDoc) documents every exported symbol', () => {
  it('typedoc finds no export without a doc comment and no broken link', async () => {
    const result = await run(
      process.execPath,
      [join(ROOT, 'node_modules/typedoc/bin/typedoc'), '--emit', 'none', '--treatValidationWarningsAsErrors'],
      { cwd: ROOT },
    ).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? '' }),
    );
    expect(
      result.stdout
        .split('\n')
        .filter((l) => /warning|error/.test(l) && !/Found 0 errors and 0 warnings/.test(l)),
    ).toEqual([]);
    expect(result.code).toBe(0);
  }, 180_000);
});
