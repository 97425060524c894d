import { type Command, Option } from '@commander-js/extra-typings';
import { BATCH_STRATEGIES, choiceOption } from '../choices.js';
import type { OptionsOf } from '../command.js';
import { fileModeOption, forceOption } from './output-options.js';
import { precheckOption } from './precheck-option.js';
import { retryForOption } from './retry-for-option.js';

/** The argument and options of `svc batch`, in the order help shows them (commands/batch.ts registers it). */
export const batchOptions = (command: Command) =>
  command
    .argument(
      '<file>',
      'CSV or .xlsx with a header row: country (Land, Pays...), VAT ID (USt-IdNr, TVA...), other fields, metadata.<key>',
    )
    .addOption(
      new Option(
        '--out <file>',
        'results, one per input row (NDJSON; CSV when the name ends in .csv; a workbook for .xlsx)',
      ),
    )
    .addOption(new Option('--sheet <name>', 'the sheet of a workbook input (default: the first)'))
    .addOption(
      // One value: commander reads `...` as variadic only after a word character, the typings after
      // anything; the parser says what the value is.
      new Option(
        '--columns <field=column,...>',
        'map columns, e.g. countryCode=Land,rawValue=USt-IdNr',
      ).argParser((value: string) => value),
    )
    .addOption(
      new Option('--delimiter <delimiter>', "CSV results' delimiter: , ; or tab (default: the input's)"),
    )
    .addOption(
      new Option(
        '--bom',
        'start CSV results with a UTF-8 BOM (default: when the input had one or was not UTF-8)',
      ),
    )
    .addOption(new Option('--no-bom', 'write CSV results without a BOM'))
    .addOption(
      new Option('--rejects <file>', 'rows refused locally or by the server, as CSV with the reason'),
    )
    .addOption(new Option('--chunk-size <n>', 'rows per batch request').default('100'))
    .addOption(
      new Option(
        '--concurrency <n>',
        'requests in flight at most (fewer while the service answers 429)',
      ).default('4'),
    )
    .addOption(retryForOption())
    .addOption(
      choiceOption(
        '--strategy <strategy>',
        'batch: POST /validations/batch; single: POST /validations, outcomes inline',
        BATCH_STRATEGIES,
      ).default('batch' as const),
    )
    .addOption(precheckOption('offline check before sending'))
    .addOption(new Option('--no-precheck', 'same as --precheck off'))
    .addOption(new Option('--resume', 'continue an interrupted run from its state file'))
    .addOption(new Option('--state <file>', 'state file (default <out>.state.json)'))
    .addOption(forceOption('--out, --rejects or a state file'))
    .addOption(fileModeOption())
    .addOption(new Option('--run-id <id>', 'seed of the idempotency keys (default: hash of the input bytes)'))
    .addOption(
      new Option('--wait', 'wait for the outcome of every row (webhooks, confirmed by fetching each result)'),
    )
    .addOption(new Option('--listen <host:port>', 'where --wait listens for webhooks').default('127.0.0.1:0'))
    .addOption(new Option('--register <baseUrl>', 'register the --wait listener with a reference server'))
    .addOption(
      new Option(
        '--wait-timeout <seconds>',
        'how long --wait waits for outcomes; rows still without one end as pending (--resume finishes them)',
      ).default('300'),
    )
    .addOption(
      new Option(
        '--reconcile-after <seconds>',
        'with --wait: when no completion came for this long, ask the service about the missing rows (same idempotency keys)',
      ).default('10'),
    )
    .addOption(
      new Option(
        '--encoding <name>',
        'input encoding: utf-8, utf-16le, utf-16be, windows-1252, latin1... (default: BOM, else UTF-8, else windows-1252)',
      ),
    );

/** The options of `svc batch`, as its handler takes them. */
export type BatchOptions = OptionsOf<typeof batchOptions>;
