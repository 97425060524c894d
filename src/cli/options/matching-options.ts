import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { PROVIDERS } from '../../tax/enums.js';
import { choiceOption } from '../choices.js';
import type { OptionsOf } from '../command.js';

/** The matching options, shared by `validate` and `schedules create`, after their arguments. */
export const matchingOptions = <A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
) =>
  command
    .addOption(new Option('--company-name <name>', 'company name to match against the registry'))
    .addOption(new Option('--street <street>', 'address: street'))
    .addOption(new Option('--postal-code <code>', 'address: postal code'))
    .addOption(new Option('--city <city>', 'address: city'))
    .addOption(new Option('--region <region>', 'address: region'))
    .addOption(new Option('--address-country <cc>', 'address: country code'))
    .addOption(new Option('--requester-vat-id <id>', "the requester's own VAT ID"))
    .addOption(
      choiceOption('--provider <provider>', 'pin a registry', PROVIDERS, (value) => value.toUpperCase()),
    );

/** The matching options of `validate` and `schedules create`. */
export type MatchingOptions = OptionsOf<
  typeof matchingOptions<[], Record<never, never>, Record<never, never>>
>;
