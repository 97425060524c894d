import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { COMMAND_EXITS, EXIT_MEANING } from './exit-codes.js';
import { OUTPUT_CONTRACT } from './registry.js';

/** The path of a command from the root (`audit export`); `''` for `svc` itself. */
/** The examples of a command, as its help shows them (help-examples.ts: passed in, so this module imports no help code). */
type ExamplesOf = (command: CommandUnknownOpts) => readonly string[];

function pathOf(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (let c: CommandUnknownOpts | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Every command with an action, depth first, in definition order; `help` commands left out. */
function leaves(command: CommandUnknownOpts): CommandUnknownOpts[] {
  const subs = command.commands.filter((c) => c.name() !== 'help');
  if (subs.length === 0) return [command];
  // A group that is also a command of its own (`svc audit gaps` and `svc audit gaps ack`).
  const own = command.parent !== null && OUTPUT_CONTRACT[pathOf(command)] !== undefined;
  return [...(own ? [command] : []), ...subs.flatMap(leaves)];
}

/** A Markdown table cell: pipes escaped, line breaks folded. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

/** The options table of one command (its own options, not the global ones). */
function optionsTable(command: CommandUnknownOpts): string[] {
  const options = command.options.filter((o) => !o.hidden);
  if (options.length === 0) return [];
  const rows = options.map((o) => {
    const notes: string[] = [];
    if (o.argChoices) notes.push(`one of ${o.argChoices.map(code).join(', ')}`);
    if (o.defaultValue !== undefined && !o.negate) notes.push(`default ${code(String(o.defaultValue))}`);
    return `| ${code(o.flags)} | ${cell(o.description)} | ${cell(notes.join('; '))} |`;
  });
  return ['| option | what it does | values |', '| --- | --- | --- |', ...rows, ''];
}

function argumentsList(command: CommandUnknownOpts): string[] {
  const args = command.registeredArguments;
  if (args.length === 0) return [];
  const rows = args.map((a) => {
    const name = a.variadic ? `${a.name()}...` : a.name();
    const notes = [a.required ? 'required' : 'optional'];
    if (a.argChoices) notes.push(`one of ${a.argChoices.map(code).join(', ')}`);
    if (a.defaultValue !== undefined) notes.push(`default ${code(String(a.defaultValue))}`);
    return `| ${code(name)} | ${cell(a.description)} | ${notes.join('; ')} |`;
  });
  return ['| argument | what it is | |', '| --- | --- | --- |', ...rows, ''];
}

function exitCodes(path: string): string[] {
  const own = COMMAND_EXITS[path] ?? {};
  const codes = new Map<number, string>([
    [0, EXIT_MEANING[0] as string],
    [1, EXIT_MEANING[1] as string],
    [2, EXIT_MEANING[2] as string],
  ]);
  for (const [codeText, meaning] of Object.entries(own)) codes.set(Number(codeText), meaning);
  const sorted = [...codes].sort(([a], [b]) => a - b);
  return ['Exit codes:', '', ...sorted.map(([c, meaning]) => `- \`${c}\`: ${meaning}`), ''];
}

function formats(path: string): string[] {
  const list = OUTPUT_CONTRACT[path];
  if (list === undefined) return [];
  if (list.length === 0) return ['Output: prints no data in a format (`-o` is refused).', ''];
  // As resolveOutputFormat picks it. A command without `table` prints its own default (NDJSON,
  // plain lines, the token alone), which its guide names: no claim here.
  const fallback = list.includes('table') ? '; without `-o`: `table` on a terminal, `json` otherwise' : '';
  return [`Output (\`-o\`): ${list.map(code).join(', ')}${fallback}.`, ''];
}

/**
 * Commands whose examples run as written against a reference server (the doc test runs them, each
 * line's exit code compared with its `# exit N`); the others hold ids, files or tokens of the
 * reader's own, and the doc test only parses them.
 */
const RUNNABLE_EXAMPLES = new Set(['validate', 'precheck', 'schedules create', 'audit export']);

function examplesFence(path: string): string {
  return RUNNABLE_EXAMPLES.has(path) ? '```sh' : '```sh parse-only "ids, files or tokens of your own"';
}

function commandSection(command: CommandUnknownOpts, examplesFor: ExamplesOf): string[] {
  const path = pathOf(command);
  const usage = `svc ${path} ${command.usage()}`.replace(/\s+/g, ' ').trim();
  const examples = examplesFor(command);
  return [
    `### svc ${path}`,
    '',
    `${command.description()}.`.replace(/\.\.$/, '.'),
    '',
    '```text',
    usage,
    '```',
    '',
    ...argumentsList(command),
    ...optionsTable(command),
    ...formats(path),
    ...(examples.length ? ['Examples:', '', examplesFence(path), ...examples, '```', ''] : []),
    ...exitCodes(path),
  ];
}

/**
 * The command reference of `svc` as Markdown, generated from the command definitions (as `gh help
 * reference` does), so the published reference cannot drift from the program: every command, its
 * arguments, options with defaults and choices, output formats, examples and exit codes.
 * `npm run docs` writes it to `docs/cli.md`; a test fails when that file is stale. `examplesFor`
 * gives each command's examples (the help's own, help-examples.ts).
 */
export function renderCliReference(program: CommandUnknownOpts, examplesFor: ExamplesOf): string {
  const commands = leaves(program);
  const globals = program.options.filter((o) => !o.hidden);
  const rootExamples = examplesFor(program);
  const lines = [
    '<!-- Generated by `npm run docs` (svc help reference) from the command definitions. Do not edit. -->',
    '',
    '# svc command reference',
    '',
    `${program.description()}.`,
    '',
    'Data goes to stdout; progress, warnings and errors to stderr. A failure prints one line',
    '(`svc: ...`), with details and a stack trace only under `--debug`. Precedence of settings:',
    'flag, then environment variable, then profile (`svc config`), then default.',
    '',
    '## Commands',
    '',
    ...commands.map((c) => `- [\`svc ${pathOf(c)}\`](#${anchor(`svc ${pathOf(c)}`)}): ${c.description()}`),
    '',
    '## Global options',
    '',
    'Accepted by every command, before or after the command name.',
    '',
    '| option | what it does | values |',
    '| --- | --- | --- |',
    ...globals.map((o) => {
      const notes = o.argChoices ? `one of ${o.argChoices.map(code).join(', ')}` : '';
      return `| ${code(o.flags)} | ${cell(o.description)} | ${notes} |`;
    }),
    '',
    '## Exit codes',
    '',
    ...Object.entries(EXIT_MEANING).map(([c, meaning]) => `- \`${c}\`: ${meaning}`),
    '',
    // The examples `svc --help` ends with: the reference carries every example the help shows.
    ...(rootExamples.length ? ['## Examples', '', examplesFence(''), ...rootExamples, '```', ''] : []),
    '## Commands in detail',
    '',
    ...commands.flatMap((command) => commandSection(command, examplesFor)),
  ];
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** GitHub's heading anchor for a heading text. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}
