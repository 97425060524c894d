import { Option } from '@commander-js/extra-typings';

// The range of `svc audit list` and `svc audit export`.

/** `--from <timestamp>`: the start of the range. */
export const fromOption = () =>
  new Option('--from <timestamp>', 'start of the range, ISO 8601 (default: 24 hours before --to)');

/** `--to <timestamp>`: the end of the range. */
export const toOption = () => new Option('--to <timestamp>', 'end of the range, ISO 8601 (default: now)');
