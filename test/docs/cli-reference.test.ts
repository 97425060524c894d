import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_EXITS } from '../../src/cli/exit-codes.js';
import { OUTPUT_CONTRACT } from '../../src/cli/registry.js';
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

  it('carries every example `svc --help` shows', async () => {
    const help = await runSvc(['--help']);
    const examples = help.stdout
      .slice(help.stdout.indexOf('\nExamples:\n'))
      .split('\n')
      .filter((line) => line.startsWith('  $ '))
      .map((line) => line.slice(4));
    // (control) the help does show examples, among them the sandbox one.
    expect(examples).toContain('svc --sandbox validate DE 136695976');
    const { stdout } = await runSvc(['help', 'reference']);
    for (const example of examples) expect(stdout).toContain(`\n${example}\n`);
  });

  it('`svc help reference` is for the root only: `svc audit help reference` is an unknown command (exit 2)', async () => {
    const run = await runSvc(['audit', 'help', 'reference']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'reference'");
  });
});

describe('the command reference states the default output format the way the CLI picks it', () => {
  it('json off a terminal, table on one', async () => {
    const { stdout } = await runSvc(['help', 'reference']);
    const precheck = stdout.slice(
      stdout.indexOf('### svc precheck\n'),
      stdout.indexOf('### svc results get\n'),
    );
    expect(precheck).toContain(
      'Output (`-o`): `table`, `json`, `ndjson`, `csv`; without `-o`: `table` on a terminal, `json` otherwise.',
    );
    expect(stdout).not.toContain('the first is the default');
    const offTerminal = await runSvc(['precheck', 'DE', '136695976']);
    expect(JSON.parse(offTerminal.stdout)).toMatchObject({ valid: true });
    const onTerminal = await runSvc(['precheck', 'DE', '136695976'], { tty: true });
    expect(onTerminal.stdout).toContain('│');
  });
});

describe("the command reference lists each command's own exit codes as the command gives them", () => {
  it('audit gaps 5, audit tail 0 when stopped, token decode 130', async () => {
    const { stdout } = await runSvc(['help', 'reference']);
    const section = (name: string) => {
      const start = stdout.indexOf(`### svc ${name}\n`);
      return stdout.slice(start, stdout.indexOf('\n### ', start + 1));
    };
    expect(section('audit gaps')).toContain('- `5`: a gap is open');
    expect(section('audit tail')).toContain('- `0`: stopped by Ctrl-C, SIGINT or SIGTERM');
    expect(section('audit tail')).not.toContain('`130`');
    expect(section('token decode')).toContain('- `130`: interrupted while reading stdin');
  });
});
