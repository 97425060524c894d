import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { COMPLETION_SHELLS } from '../../src/cli/choices.js';
import { commandTree } from '../../src/cli/handlers/completion.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { commandsOf, quietProgram, runSvc } from '../helpers/cli.js';

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const HAS_BASH = has('bash');

async function script(shell: string): Promise<string> {
  const run = await runSvc(['completion', shell]);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe('');
  return run.stdout;
}

/** Every command path of the real program, e.g. `audit export`. */
function commandPaths(): string[] {
  return commandsOf(quietProgram())
    .slice(1)
    .map((c) => c.path.join(' '));
}

/** Every option of the program that declares its values with `.choices()`, with its command. */
function optionsWithChoices(): Array<{
  command: CommandUnknownOpts;
  option: CommandUnknownOpts['options'][number];
}> {
  return commandsOf(quietProgram()).flatMap(({ command }) =>
    command.options.filter((o) => o.argChoices).map((option) => ({ command, option })),
  );
}

/** Runs the bash completion function for the words typed so far (the last one is being completed). */
function bashComplete(bashScript: string, words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(' ');
  const res = spawnSync(
    'bash',
    [
      '-c',
      `${bashScript}\nCOMP_WORDS=(svc ${line}); COMP_CWORD=${words.length}; _svc_completion; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8' },
  );
  expect(res.stderr).toBe('');
  return res.stdout.split('\n').filter((l) => l !== '');
}

describe('svc completion prints a completion script for bash, zsh and fish', () => {
  it.each(COMPLETION_SHELLS)('%s: names every command, subcommand and their long options', async (shell) => {
    const text = await script(shell);
    for (const name of ['validate', 'precheck', 'batch', 'audit', 'captcha', 'token', 'config', 'serve']) {
      expect(text).toContain(name);
    }
    for (const name of ['openapi', 'completion', 'export', 'tail', 'legacy', 'decode', 'schedules']) {
      expect(text).toContain(name);
    }
    // Long options of subcommands and global ones (fish writes them without the dashes).
    const flag = (long: string) => (shell === 'fish' ? `-l ${long}` : `--${long}`);
    for (const long of ['gzip', 'state', 'page-size', 'policy', 'base-url', 'output', 'chunk-size']) {
      expect(text).toContain(flag(long));
    }
  });

  it.each(COMPLETION_SHELLS)(
    '%s: derived from the program, so every command path is in it',
    async (shell) => {
      const text = await script(shell);
      const paths = commandPaths();
      expect(paths).toContain('audit export');
      expect(paths).toContain('completion');
      // bash and zsh list each path as a case pattern, fish in __svc_paths: always single-quoted.
      for (const path of paths.filter((p) => p.includes(' '))) expect(text).toContain(`'${path}'`);
    },
  );

  it('leaves out hidden options', async () => {
    for (const shell of COMPLETION_SHELLS) expect(await script(shell)).not.toContain('max-polls');
  });
});

describe('the choices of an option are declared once: the parser, the help and the completion use them', () => {
  it('the options with a fixed set of values all declare it', () => {
    const longs = new Set(optionsWithChoices().map(({ option }) => option.long));
    for (const long of [
      '--output',
      '--precheck',
      '--schedule',
      '--frequency',
      '--provider',
      '--on-failover',
      '--strategy',
    ]) {
      expect(longs).toContain(long);
    }
  });

  it('completion offers exactly the declared values', () => {
    for (const { command, option } of optionsWithChoices()) {
      const spec = commandTree(command).options.find((o) => o.long === option.long);
      expect(spec?.choices, option.long).toEqual(option.argChoices);
    }
  });

  it('help lists the declared values', () => {
    for (const { command, option } of optionsWithChoices()) {
      const help = command.helpInformation();
      for (const value of option.argChoices ?? []) expect(help, option.long).toContain(`"${value}"`);
    }
  });

  it('the parser accepts each declared value and refuses anything else with a usage error', () => {
    for (const { option } of optionsWithChoices()) {
      const parse = option.parseArg as (value: string, previous: unknown) => unknown;
      for (const value of option.argChoices ?? []) expect(parse(value, undefined), option.long).toBe(value);
      expect(() => parse('no-such-value', undefined), option.long).toThrow(UsageError);
    }
  });
});

describe('the bash script is valid bash and completes commands, subcommands, options and values', () => {
  it.skipIf(!HAS_BASH)('bash -n accepts it', async () => {
    const res = spawnSync('bash', ['-n'], { input: await script('bash'), encoding: 'utf8' });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
  });

  it.skipIf(!HAS_BASH)('completes like a user would see it', async () => {
    const text = await script('bash');
    expect(bashComplete(text, ['au'])).toEqual(['audit']);
    expect(bashComplete(text, ['audit', ''])).toEqual([
      'list',
      'export',
      'tail',
      'sync',
      'verify',
      'gaps',
      'copy',
      'search',
      'report',
      'ship',
      'receive',
      'help',
    ]);
    expect(bashComplete(text, ['audit', 'export', '--g'])).toEqual(['--gzip']);
    expect(bashComplete(text, ['-o', ''])).toEqual(['table', 'json', 'ndjson', 'csv']);
    // Option values are not mistaken for commands; global options work after a command.
    expect(bashComplete(text, ['--output', 'json', 'audit', 'e'])).toEqual(['export']);
    expect(bashComplete(text, ['captcha', 'result', '--base-u'])).toEqual(['--base-url']);
    expect(bashComplete(text, ['captcha', 'result', '--on-failover', 'ch'])).toEqual(['challenge']);
    // A file argument or a file-valued option: nothing offered, bash falls back to file names.
    expect(bashComplete(text, ['batch', ''])).toEqual([]);
    expect(bashComplete(text, ['audit', 'export', '--out', ''])).toEqual([]);
  });
});

describe('zsh and fish accept their scripts (checked where the shell is installed)', () => {
  it.skipIf(!has('zsh'))('zsh -n', async () => {
    const res = spawnSync('zsh', ['-n'], { input: await script('zsh'), encoding: 'utf8' });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
  });

  it.skipIf(!has('fish'))('fish --no-execute, and fish completes with it', async () => {
    const text = await script('fish');
    // fish checks a file; it does not read a script from a pipe here.
    const file = join(mkdtempSync(join(tmpdir(), 'svc-completion-')), 'svc.fish');
    writeFileSync(file, text);
    const res = spawnSync('fish', ['--no-execute', file], { encoding: 'utf8' });
    rmSync(dirname(file), { recursive: true, force: true });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const complete = (line: string) => {
      const out = spawnSync('fish', ['-c', `${text}\ncomplete -C '${line}'`], { encoding: 'utf8' });
      return out.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.split('\t')[0]);
    };
    expect(complete('svc audit ')).toEqual(['export', 'list', 'tail']);
    expect(complete('svc --output json audit export --g')).toEqual(['--gzip']);
    expect(complete('svc captcha result --on-failover ')).toEqual(['accept', 'challenge', 'reject']);
  });
});

describe('an unknown or missing shell is a usage error (exit 2, one line)', () => {
  it('unknown shell', async () => {
    const run = await runSvc(['completion', 'tcsh']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe("svc: unknown shell 'tcsh': use bash, zsh or fish\n");
  });

  it('no shell', async () => {
    const run = await runSvc(['completion']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
