import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import type { CsvStyle } from '../core/csv-line.js';
import { commandPath } from './command-path.js';
import type { OutputFormat } from './output-format.js';
import { UsageError } from './usage-error.js';

// `--bom` and `--delimiter` for every command with CSV output, as `svc batch` has them: one
// parser, one set of words, the one CSV writer (core/csv-line.ts). They are options of those
// commands, not global ones: a command without CSV output does not take them, and `svc batch`
// keeps its own (their defaults follow its input file, and it writes CSV to `--out x.csv`
// whatever `-o` says).

const DELIMITERS: Readonly<Record<string, ',' | ';' | '\t'>> = { ',': ',', ';': ';', tab: '\t', '\t': '\t' };

/** `--delimiter , | ; | tab` (a tab character too); undefined when not given, else a usage error. */
export function parseDelimiter(value: string | undefined): ',' | ';' | '\t' | undefined {
  if (value === undefined) return undefined;
  const delimiter = DELIMITERS[value.toLowerCase()];
  if (!delimiter) throw new UsageError(`--delimiter must be , ; or tab, got '${value}'`);
  return delimiter;
}

/** The commands given the options here (not `svc batch`, which defines its own). */
const WITH_CSV_OPTIONS = new WeakSet<object>();

/** Every command below `command`, itself included. */
function* walk(command: CommandUnknownOpts): Generator<CommandUnknownOpts> {
  yield command;
  for (const sub of command.commands) yield* walk(sub);
}

/**
 * Adds `--bom` and `--delimiter` to each command whose output contract (`contract`, the registry's)
 * includes `csv`, unless it defines `--delimiter` itself (`svc batch`). Call after every command
 * is defined.
 */
export function addCsvOptions(
  program: CommandUnknownOpts,
  contract: Readonly<Record<string, readonly OutputFormat[]>>,
): void {
  for (const command of walk(program)) {
    const path = commandPath(command);
    if (path === undefined || !contract[path]?.includes('csv')) continue;
    if (command.options.some((option) => option.long === '--delimiter')) continue;
    command
      .addOption(new Option('--bom', 'with -o csv: start with a UTF-8 BOM, so Excel reads the text as UTF-8'))
      .addOption(
        new Option('--delimiter <delimiter>', 'with -o csv: fields separated by , or ; or tab (default ,)'),
      );
    WITH_CSV_OPTIONS.add(command);
  }
}

/**
 * The CSV style of a run from its command's `--bom` and `--delimiter` (default `,` without a
 * BOM); undefined for a command without these options. Either one without CSV output (`-o csv`,
 * or `SVC_OUTPUT`/the profile's `output` set to csv) is a {@link UsageError}: nothing would use it.
 */
export function csvStyleOf(command: unknown, format: OutputFormat): CsvStyle | undefined {
  if (typeof command !== 'object' || command === null || !WITH_CSV_OPTIONS.has(command)) return undefined;
  const { bom, delimiter } = (command as CommandUnknownOpts).opts() as { bom?: boolean; delimiter?: string };
  const parsed = parseDelimiter(delimiter);
  if ((bom || parsed !== undefined) && format !== 'csv') {
    const given = [bom && '--bom', parsed !== undefined && '--delimiter'].filter(Boolean);
    throw new UsageError(
      `${given.join(' and ')} ${given.length > 1 ? 'are' : 'is'} for CSV output: add -o csv (this run prints ${format})`,
    );
  }
  return { delimiter: parsed ?? ',', bom: Boolean(bom) };
}
