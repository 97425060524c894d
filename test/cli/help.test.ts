import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { beforeAll, describe, expect, it } from 'vitest';
import { examplesFor, HELP_EXAMPLES } from '../../src/cli/help-examples.js';
import { ROOT } from '../helpers/build.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { commandsOf, quietProgram, runSvc } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const env = { XDG_CONFIG_HOME: join(ROOT, 'no-such-config-dir') };

/** Every command that runs something (leaves), without the help commands themselves. */
const leaves = () =>
  commandsOf(quietProgram()).filter((c) => c.command.commands.length === 0 && c.path.at(-1) !== 'help');

/** The words after `svc` in an example, up to a pipe, redirect, `)` or comment. */
function svcWords(example: string): string[] {
  const args = /(?:^|[\s(])svc((?:\s+[^\s|)>#]+)*)/.exec(example)?.[1] ?? '';
  return args.match(/"[^"]*"|\S+/g) ?? [];
}

describe('svc help <name> exits 2 with a suggestion when the command does not exist', () => {
  it.each([
    [['help', 'nonexistent'], "svc: unknown command 'nonexistent'\n"],
    [['help', 'valdate'], "svc: unknown command 'valdate' (Did you mean validate?)\n"],
    [['help', 'audit', 'expor'], "svc: unknown command 'expor' (Did you mean export?)\n"],
  ])('svc %j', async (args, stderr) => {
    const run = await runSvc(args, { env });
    expect(run).toEqual({ code: 2, stdout: '', stderr });
  });

  it('svc help <command> prints that command’s help on stdout and exits 0', async () => {
    const run = await runSvc(['help', 'audit', 'export'], { env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Usage: svc audit export/);
  });

  it('svc help and svc audit help still list the commands', async () => {
    expect((await runSvc(['help'], { env })).stdout).toMatch(/validate/);
    const audit = await runSvc(['audit', 'help'], { env });
    expect(audit.code).toBe(0);
    expect(audit.stdout).toMatch(/export/);
  });
});

describe('every subcommand’s help lists the global flags and ends with two or three examples', () => {
  it.each(leaves().map((c) => [c.path.join(' ')]))('svc %s --help', async (path) => {
    const run = await runSvc([...path.split(' '), '--help'], { env });
    expect(run.code).toBe(0);
    const [, globals = ''] = run.stdout.split('Global Options:');
    for (const flag of ['--base-url', '--api-key', '--profile', '--output', '--sandbox', '--quiet']) {
      expect(globals).toContain(flag);
    }
    const [, examples = ''] = run.stdout.split('\nExamples:\n');
    const lines = examples.split('\n').filter((l) => l.startsWith('  $ '));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(3);
  });
});

describe('every help text fits 80 columns', () => {
  // completion's own "Load it:" lines (commands/completion-command.ts) are wider; left to that file.
  const paths = commandsOf(quietProgram()).filter((c) => c.path[0] !== 'completion');
  it.each(paths.map((c) => [c.path.join(' ')]))('svc %s --help', async (path) => {
    const run = await runSvc([...path.split(' ').filter(Boolean), '--help'], { env });
    const wide = run.stdout.split('\n').filter((line) => line.length > 80);
    expect(wide).toEqual([]);
  });
});

describe('every example names a real command and only flags it accepts', () => {
  const root = quietProgram();
  const globals = new Set(root.options.flatMap((o) => [o.long, o.short].filter(Boolean) as string[]));
  const all = Object.entries(HELP_EXAMPLES).flatMap(([path, examples]) => examples.map((e) => [path, e]));
  const present = all.filter(([path]) => {
    let c: Command | undefined = root;
    for (const name of (path as string).split(' ').filter(Boolean))
      c = c?.commands.find((s) => s.name() === name);
    return c !== undefined;
  });

  it('covers every command that exists', () => {
    for (const { command, path } of commandsOf(root)) {
      expect(examplesFor(command).length, `svc ${path.join(' ')}`).toBeGreaterThan(0);
    }
  });

  it.each(present)('%s: %s', (_path, example) => {
    const words = svcWords(example as string);
    let command: Command = root;
    const flags: string[] = [];
    for (const word of words) {
      if (word.startsWith('-') && word !== '-') flags.push(word.split('=')[0] as string);
      else {
        const sub = command.commands.find((c) => c.name() === word);
        if (sub && flags.length === 0) command = sub;
      }
    }
    const known = new Set([
      ...globals,
      ...command.options.flatMap((o) => [o.long, o.short].filter(Boolean) as string[]),
    ]);
    for (const flag of flags) expect(known, `${example}: ${flag}`).toContain(flag);
  });
});

describe('svc version prints the package version, like svc --version', () => {
  it('in-process', async () => {
    expect(await runSvc(['version'], { env })).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});

describe('the built bin/svc.js: help for an unknown command exits 2, svc version prints the version', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it('svc help nonexistent', async () => {
    const child = spawnSvc(['help', 'nonexistent'], env);
    expect(await exited(child)).toBe(2);
    expect(child.output().stderr).toBe("svc: unknown command 'nonexistent'\n");
  });

  it('svc version', async () => {
    const child = spawnSvc(['version'], env);
    expect(await exited(child)).toBe(0);
    expect(child.output().stdout).toBe(`${pkg.version}\n`);
  });
});
