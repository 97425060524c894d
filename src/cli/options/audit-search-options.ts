import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { s3EndpointOption, s3PathStyleOption, s3RegionOption } from './bucket-options.js';
import { retryForOption } from './retry-for-option.js';

/** The argument and options of `svc audit search [QUERY...]` (commands/audit-search.ts registers it). */
export const auditSearchOptions = (command: Command) =>
  command
    // A negated term (`-action:read`) reads as an option to commander: words it does not know
    // stay words of the query, in their order; a mistyped `--flag` is refused by the handler.
    .allowUnknownOption()
    .argument(
      '[query...]',
      'qualifiers such as type:platform.user.* actor.type:API_KEY -action:read occurred:>=2026-11-01 (see docs/audit-reports.md); none: every event',
    )
    .addOption(
      new Option(
        '--dir <dir>',
        'search an archive written by `svc audit sync` (a directory or s3://BUCKET/PREFIX), each file checked against its manifest; without it, the API for --from/--to',
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
      new Option('--limit <n>', 'stop after this many matches (default: all; a table shows at most 1000)'),
    )
    .addOption(retryForOption())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit search`, as its handler takes them. */
export type AuditSearchOptions = OptionsOf<typeof auditSearchOptions>;
