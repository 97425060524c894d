import { PRECHECK_MODES } from '../../tax/enums.js';
import { choiceOption } from '../choices.js';

/** `--precheck <mode>`, of `validate` and `batch` (each adds `--no-precheck` after it). */
export const precheckOption = (description: string) =>
  choiceOption('--precheck <mode>', description, PRECHECK_MODES).default('structural' as const);
