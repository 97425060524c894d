import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { AUDIT_EVENT_FORMATS } from '../../audit/normalise/format.js';
import { choiceOption } from '../choices.js';

// How a command that writes audit events writes each one (handlers/event-format.ts): as
// received, or normalised to ECS or OCSF (docs/audit-imports.md).

/** `--format raw|ecs|ocsf` and `--keep-original`; `formatHelp` says what the command's default is (default: raw). */
export const eventFormatOptions = <
  Args extends unknown[],
  Opts extends OptionValues,
  Globals extends OptionValues,
>(
  command: Command<Args, Opts, Globals>,
  formatHelp = 'raw: each event as received (default); ecs or ocsf: normalised (see docs/audit-imports.md)',
) =>
  command
    .addOption(choiceOption('--format <format>', formatHelp, AUDIT_EVENT_FORMATS))
    .addOption(
      new Option(
        '--keep-original',
        'with --format ecs or ocsf: the event as received too (event.original, raw_data)',
      ),
    );
