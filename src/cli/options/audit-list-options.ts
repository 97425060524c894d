import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { fromOption, toOption } from './audit-range-options.js';
import { retryForOption } from './retry-for-option.js';

/** The options of `svc audit list` (commands/audit-list.ts registers it). */
export const auditListOptions = (command: Command) =>
  command
    .addOption(fromOption())
    .addOption(toOption())
    .addOption(new Option('--page <n>', 'zero-based page index; ignored with --cursor'))
    .addOption(new Option('--page-size <n>', 'events per page, 1 to 1000 (default 100)'))
    .addOption(new Option('--cursor <cursor>', 'continue after a previous page (its nextCursor)'))
    .addOption(retryForOption());

/** The options of `svc audit list`, as its handler takes them. */
export type AuditListOptions = OptionsOf<typeof auditListOptions>;
