import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { FREQUENCIES, PROVIDERS } from '../../tax/enums.js';
import { choiceOption } from '../choices.js';
import type { OptionsOf } from '../command.js';
import { addBatchOptions } from './batch-options.js';
import { fileModeOption } from './output-options.js';
import { precheckOption } from './precheck-option.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

const upper = (value: string) => value.toUpperCase();

/** A schedule frequency option (`--frequency`, `--schedule`); case does not matter. */
const frequencyOption = <Usage extends string>(flags: Usage, description: string) =>
  choiceOption(flags, description, FREQUENCIES, upper);

/** The matching options, shared by `validate` and `schedules create`. */
const matching = <A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) =>
  cmd
    .addOption(new Option('--company-name <name>', 'company name to match against the registry'))
    .addOption(new Option('--street <street>', 'address: street'))
    .addOption(new Option('--postal-code <code>', 'address: postal code'))
    .addOption(new Option('--city <city>', 'address: city'))
    .addOption(new Option('--region <region>', 'address: region'))
    .addOption(new Option('--address-country <cc>', 'address: country code'))
    .addOption(new Option('--requester-vat-id <id>', "the requester's own VAT ID"))
    .addOption(choiceOption('--provider <provider>', 'pin a registry', PROVIDERS, upper));

/** The matching options of `validate` and `schedules create`. */
export type MatchingOptions = OptionsOf<typeof matching<[], Record<never, never>, Record<never, never>>>;

/** `svc validate`, before its action. */
export const validateCommand = (program: Command) =>
  matching(
    program
      .command('validate')
      .description('validate one tax ID against its registry')
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

/** The options of `svc validate`. */
export type ValidateOptions = OptionsOf<typeof validateCommand>;

/** `svc schedules create`, before its action. */
export const schedulesCreateCommand = (schedules: Command) =>
  matching(
    schedules
      .command('create')
      .description('put a tax ID on a recurring schedule')
      .argument('<countryCode>')
      .argument('<rawValue>')
      .addOption(frequencyOption('--frequency <frequency>', 'how often').makeOptionMandatory()),
  )
    .addOption(new Option('--mode <mode>', 'schedule mode'))
    .addOption(new Option('--no-manual-review', 'do not send automatic failures to manual review'))
    .addOption(new Option('--disabled', 'create the schedule disabled'));

/** The options of `svc schedules create`. */
export type SchedulesCreateOptions = OptionsOf<typeof schedulesCreateCommand>;

/** `svc webhooks listen`, before its action. */
export const webhooksListenCommand = (webhooks: Command) =>
  webhooks
    .command('listen')
    .description('listen on 127.0.0.1 for webhook events and print them as NDJSON')
    .addOption(new Option('--host <host>', 'interface to bind').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'port (0 picks a free one)').default('0'))
    .addOption(new Option('--out <file>', 'append events to this file instead of stdout'))
    .addOption(fileModeOption())
    .addOption(new Option('--confirm', 'fetch each completed result from the API to confirm it'))
    .addOption(
      new Option('--register <adminUrl>', 'register the listener with a reference server (its base URL)'),
    )
    .addOption(new Option('--max-events <n>', 'stop after N events'))
    .addOption(
      new Option(
        '--forward-to <url>',
        'POST every event, body unchanged, to this URL (your app); a failed forward is answered 502 so the sender retries',
      ),
    );

/** The options of `svc webhooks listen`. */
export type WebhooksListenOptions = OptionsOf<typeof webhooksListenCommand>;

/** `svc batch`, before its action (its options in batch-options.ts). */
export const batchCommand = (program: Command) =>
  addBatchOptions(
    program
      .command('batch')
      .description(
        'validate every row of a CSV file or Excel workbook (or - for stdin), resumably and exactly once',
      )
      .argument(
        '<file>',
        'CSV or .xlsx with a header row: country (Land, Pays...), VAT ID (USt-IdNr, TVA...), other fields, metadata.<key>',
      ),
  );

/** The options of `svc batch`. */
export type BatchOptions = OptionsOf<typeof batchCommand>;
