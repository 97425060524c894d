import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { retryForOption } from './retry-for-option.js';

/** The options of `svc audit tail` (commands/audit-tail.ts registers it). */
export const auditTailOptions = (command: Command) =>
  command
    .addOption(new Option('--interval <seconds>', 'pause between polls').default('5'))
    .addOption(new Option('--overlap <seconds>', 're-read window for events recorded late').default('60'))
    .addOption(
      new Option('--since <timestamp>', 'print events since this time first (default: only new ones)'),
    )
    .addOption(new Option('--page-size <n>', 'events per request, 1 to 1000 (default 1000)'))
    .addOption(new Option('--max-polls <n>', 'stop after N polls').hideHelp())
    .addOption(retryForOption());

/** The options of `svc audit tail`, as its handler takes them. */
export type AuditTailOptions = OptionsOf<typeof auditTailOptions>;
