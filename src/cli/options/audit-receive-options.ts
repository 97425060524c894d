import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { s3EndpointOption, s3PathStyleOption, s3RegionOption } from './bucket-options.js';
import { fileModeOption } from './output-options.js';

/** The options of `svc audit receive` (commands/audit-receive.ts registers it). */
export const auditReceiveOptions = (command: Command) =>
  command
    .addOption(
      new Option(
        '--dir <dir>',
        'archive the pushes go into: a directory or s3://BUCKET/PREFIX (the one `svc audit sync` keeps)',
      ).makeOptionMandatory(),
    )
    .addOption(
      new Option(
        '--host <host>',
        'interface to bind (default 127.0.0.1); any other needs SVC_PUSH_SECRET or SVC_PUSH_BEARER',
      ),
    )
    .addOption(new Option('--port <port>', 'port (default 0: a free one, printed at start)'))
    .addOption(
      new Option(
        '--max-body-bytes <n>',
        'largest push body, as sent and once inflated (default 10485760, at most 268435456); larger is a 413',
      ),
    )
    .addOption(
      new Option('--tolerance <seconds>', 'how far webhook-timestamp may be from this clock (default 300)'),
    )
    .addOption(
      new Option('--max-pushes <n>', 'stop after N pushes accepted (default: run until interrupted)'),
    )
    .addOption(fileModeOption())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit receive`, as its handler takes them. */
export type AuditReceiveOptions = OptionsOf<typeof auditReceiveOptions>;
