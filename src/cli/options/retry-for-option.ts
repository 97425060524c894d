import { Option } from '@commander-js/extra-typings';

/**
 * `--retry-for <duration>`: how long a request the service throttles (429) or fails (5xx) keeps
 * being retried past `--max-retries` (the library's `retryForMs`). One flag, one text, on every
 * command that reads or sends in bulk.
 */
export const retryForOption = () =>
  new Option(
    '--retry-for <duration>',
    'keep retrying a request answered 429 or 5xx for this long past --max-retries, with growing waits (Retry-After honoured): 90s, 5m, 0 for --max-retries only; --max-retries 0 retries nothing',
  ).default('2m');
