import { FREQUENCIES } from '../../tax/enums.js';
import { choiceOption } from '../choices.js';

/** A schedule frequency option (`--frequency`, `--schedule`); case does not matter. */
export const frequencyOption = <Usage extends string>(flags: Usage, description: string) =>
  choiceOption(flags, description, FREQUENCIES, (value) => value.toUpperCase());
