import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { fromOption, toOption } from './audit-range-options.js';
import { eventFormatOptions } from './event-format-options.js';
import { fileModeOption, forceOption } from './output-options.js';
import { retryForOption } from './retry-for-option.js';

/** The options of `svc audit export` (commands/audit-export.ts registers it). */
export const auditExportOptions = (command: Command) =>
  eventFormatOptions(command)
    .addOption(fromOption())
    .addOption(toOption())
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

/** The options of `svc audit export`, as its handler takes them. */
export type AuditExportOptions = OptionsOf<typeof auditExportOptions>;
