import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_EXITS } from '../../src/cli/exit-codes.js';
import { OUTPUT_CONTRACT } from '../../src/cli/output-contract.js';
import { ROOT } from '../helpers/build.js';
import { runSvc } from '../helpers/cli.js';

describe('docs/cli.md is generated from the command definitions', () => {
  it('is byte-identical to `svc help reference` (run `npm run docs` after changing a command)', async () => {
    const run = await runSvc(['help', 'reference']);
    expect(run.code).toBe(0);
    expect(readFileSync(join(ROOT, 'docs/cli.md'), 'utf8')).toBe(run.stdout);
  });

  it('names every command of the output contract, with its options, examples and exit codes', async () => {
    const { stdout } = await runSvc(['help', 'reference']);
    for (const command of Object.keys(OUTPUT_CONTRACT)) {
      expect(stdout).toContain(`### svc ${command}\n`);
    }
    for (const command of Object.keys(COMMAND_EXITS)) expect(OUTPUT_CONTRACT).toHaveProperty([command]);
    expect(stdout).toContain('| `--precheck <mode>` |');
    expect(stdout).toContain('one of `off`, `structural`, `strict`; default `structural`');
    expect(stdout).toContain('- `75`: interrupted with a resumable state saved');
  });

  it('`svc help reference` is for the root only: `svc audit help reference` is an unknown command (exit 2)', async () => {
    const run = await runSvc(['audit', 'help', 'reference']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'reference'");
  });
});
