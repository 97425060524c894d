import { type Command, Option } from '@commander-js/extra-typings';
import { s3EndpointOption, s3PathStyleOption, s3RegionOption } from './bucket-options.js';
import { retryForOption } from './retry-for-option.js';

// Where `svc audit search` and `svc audit report` read events: an archive (`--dir`) or the API,
// over `--from`/`--to` (handlers/audit-event-source.ts).

/** `--dir`, `--from`, `--to`, `--retry-for` and the bucket settings of a command that reads events. */
export const eventSourceOptions = (command: Command) =>
  command
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
    .addOption(retryForOption())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());
