import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { frequencyOption } from './frequency-option.js';
import { matchingOptions } from './matching-options.js';
import { precheckOption } from './precheck-option.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** The arguments and options of `svc validate` (commands/validate.ts registers it). */
export const validateOptions = (command: Command) =>
  matchingOptions(
    command
      .argument('<countryCode>', '2-letter country code, e.g. DE')
      .argument('<rawValue>', 'the VAT or business ID'),
  )
    .addOption(
      new Option('--metadata <key=value>', 'customer metadata pair (repeatable, up to 20)').argParser(
        collect,
      ),
    )
    .addOption(new Option('--idempotency-key <key>', 'retrying with the same key never validates twice'))
    .addOption(new Option('--correlation-id <id>', 'your tracing id, echoed back'))
    .addOption(frequencyOption('--schedule <frequency>', 'also create a schedule'))
    .addOption(precheckOption('offline check before sending'))
    .addOption(new Option('--no-precheck', 'same as --precheck off'))
    .addOption(new Option('--exit-status', 'exit 0 VALID, 3 INVALID, 4 not conclusive (incl. still PENDING)'))
    .addOption(new Option('--wait', 'wait for a PENDING result (webhook listener, then the result endpoint)'))
    .addOption(new Option('--wait-timeout <seconds>', 'how long --wait waits').default('60'))
    .addOption(new Option('--listen <host:port>', 'where --wait listens for webhooks').default('127.0.0.1:0'))
    .addOption(new Option('--register <baseUrl>', 'register the --wait listener with a reference server'));

/** The options of `svc validate`, as its handler takes them. */
export type ValidateOptions = OptionsOf<typeof validateOptions>;
