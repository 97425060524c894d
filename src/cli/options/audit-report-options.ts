import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { s3EndpointOption, s3PathStyleOption, s3RegionOption } from './bucket-options.js';
import { forceOption } from './output-options.js';
import { retryForOption } from './retry-for-option.js';

/** The arguments and options of `svc audit report NAME [QUERY...]` (commands/audit-report.ts registers it). */
export const auditReportOptions = (command: Command) =>
  command
    // As for search: a negated term (`-actor.type:SYSTEM`) stays a word of the query.
    .allowUnknownOption()
    .argument('<name>', 'changes, sign-ins, api-keys, timeline SUBJECT or actors')
    .argument(
      '[query...]',
      'for timeline the subject (an id or label) first; then qualifiers as svc audit search takes them, which filter the events counted',
    )
    .addOption(
      new Option(
        '--dir <dir>',
        'an archive written by `svc audit sync` (a directory or s3://BUCKET/PREFIX), each file checked against its manifest; without it, the API for --from/--to',
      ),
    )
    .addOption(
      new Option(
        '--from <timestamp>',
        'start of the range, ISO 8601 (default: the archive start; against the API, 24 hours before --to)',
      ),
    )
    .addOption(
      new Option(
        '--to <timestamp>',
        "end of the range, ISO 8601 (default: the archive's head; against the API, now)",
      ),
    )
    .addOption(
      new Option(
        '--html <file>',
        'write the report as one self-contained page (chart per day, the table, what was read) instead of printing it',
      ),
    )
    .addOption(forceOption('an --html file'))
    .addOption(retryForOption())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit report`, as its handler takes them. */
export type AuditReportOptions = OptionsOf<typeof auditReportOptions>;
