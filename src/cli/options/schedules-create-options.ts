import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { frequencyOption } from './frequency-option.js';
import { matchingOptions } from './matching-options.js';

/** The arguments and options of `svc schedules create` (commands/schedules-create.ts registers it). */
export const schedulesCreateOptions = (command: Command) =>
  matchingOptions(
    command
      .argument('<countryCode>')
      .argument('<rawValue>')
      .addOption(frequencyOption('--frequency <frequency>', 'how often').makeOptionMandatory()),
  )
    .addOption(new Option('--mode <mode>', 'schedule mode'))
    .addOption(new Option('--no-manual-review', 'do not send automatic failures to manual review'))
    .addOption(new Option('--disabled', 'create the schedule disabled'));

/** The options of `svc schedules create`, as its handler takes them. */
export type SchedulesCreateOptions = OptionsOf<typeof schedulesCreateOptions>;
