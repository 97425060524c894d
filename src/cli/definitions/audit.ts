import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { fileModeOption, forceOption } from './output-options.js';
import { retryForOption } from './retry-for-option.js';

const from = () =>
  new Option('--from <timestamp>', 'start of the range, ISO 8601 (default: 24 hours before --to)');
const to = () => new Option('--to <timestamp>', 'end of the range, ISO 8601 (default: now)');

/** `svc audit list`, before its action. */
export const auditListCommand = (audit: Command) =>
  audit
    .command('list')
    .description('one page of audit events, newest first')
    .addOption(from())
    .addOption(to())
    .addOption(new Option('--page <n>', 'zero-based page index; ignored with --cursor'))
    .addOption(new Option('--page-size <n>', 'events per page, 1 to 1000 (default 100)'))
    .addOption(new Option('--cursor <cursor>', 'continue after a previous page (its nextCursor)'))
    .addOption(retryForOption());

/** The options of `svc audit list`. */
export type AuditListOptions = OptionsOf<typeof auditListCommand>;

/** `svc audit export`, before its action. */
export const auditExportCommand = (audit: Command) =>
  audit
    .command('export')
    .description('every event of the range as NDJSON, newest first, exactly as received; resumable')
    .addOption(from())
    .addOption(to())
    .addOption(new Option('--page-size <n>', 'events per request, 1 to 1000 (default 1000)'))
    .addOption(new Option('--out <file>', "output file, or '-' for stdout").default('-'))
    .addOption(
      new Option(
        '--state <file>',
        'state file for resuming, removed once the export completes (default: <out>.state.json; none for stdout)',
      ),
    )
    .addOption(new Option('--gzip', 'write gzip (one member per page, readable with zcat)'))
    .addOption(forceOption('an --out file'))
    .addOption(fileModeOption())
    .addOption(retryForOption());

/** The options of `svc audit export`. */
export type AuditExportOptions = OptionsOf<typeof auditExportCommand>;

/** `svc audit tail`, before its action. */
export const auditTailCommand = (audit: Command) =>
  audit
    .command('tail')
    .description('follow new audit events, oldest first, as NDJSON')
    .addOption(new Option('--interval <seconds>', 'pause between polls').default('5'))
    .addOption(new Option('--overlap <seconds>', 're-read window for events recorded late').default('60'))
    .addOption(
      new Option('--since <timestamp>', 'print events since this time first (default: only new ones)'),
    )
    .addOption(new Option('--page-size <n>', 'events per request, 1 to 1000 (default 1000)'))
    .addOption(new Option('--max-polls <n>', 'stop after N polls').hideHelp())
    .addOption(retryForOption());

/** The options of `svc audit tail`. */
export type AuditTailOptions = OptionsOf<typeof auditTailCommand>;
