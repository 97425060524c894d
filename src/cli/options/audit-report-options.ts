import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { eventSourceOptions } from './event-source-options.js';
import { forceOption } from './output-options.js';

/** The arguments and options of `svc audit report NAME [QUERY...]` (commands/audit-report.ts registers it). */
export const auditReportOptions = (command: Command) =>
  eventSourceOptions(command)
    // As for search: a negated term (`-actor.type:SYSTEM`) stays a word of the query.
    .allowUnknownOption()
    .argument('<name>', 'changes, sign-ins, api-keys, timeline SUBJECT or actors')
    .argument(
      '[query...]',
      'for timeline the subject (an id or label) first; then qualifiers as svc audit search takes them, which filter the events counted',
    )
    .addOption(
      new Option(
        '--html <file>',
        'write the report as one self-contained page (chart per day, the table, what was read) instead of printing it',
      ),
    )
    .addOption(forceOption('an --html file'));

/** The options of `svc audit report`, as its handler takes them. */
export type AuditReportOptions = OptionsOf<typeof auditReportOptions>;
