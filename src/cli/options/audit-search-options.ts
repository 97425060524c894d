import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { eventFormatOptions } from './event-format-options.js';
import { eventSourceOptions } from './event-source-options.js';

/** The argument and options of `svc audit search [QUERY...]` (commands/audit-search.ts registers it). */
export const auditSearchOptions = (command: Command) =>
  eventFormatOptions(eventSourceOptions(command))
    // A negated term (`-action:read`) reads as an option to commander: words it does not know
    // stay words of the query, in their order; a mistyped `--flag` is refused by the handler.
    .allowUnknownOption()
    .argument(
      '[query...]',
      'qualifiers such as type:platform.user.* actor.type:API_KEY -action:read occurred:>=2026-11-01 (see docs/audit-reports.md); none: every event',
    )
    .addOption(
      new Option('--limit <n>', 'stop after this many matches (default: all; a table shows at most 1000)'),
    );

/** The options of `svc audit search`, as its handler takes them. */
export type AuditSearchOptions = OptionsOf<typeof auditSearchOptions>;
