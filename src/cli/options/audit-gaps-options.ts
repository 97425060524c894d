import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import { s3EndpointOption, s3PathStyleOption, s3RegionOption } from './bucket-options.js';

// `svc audit gaps` and `svc audit gaps ack`: one handler file (audit-gaps.ts) takes both.

/** The options of `svc audit gaps` (commands/audit-gaps.ts registers it). */
export const auditGapsOptions = (command: Command) =>
  command
    .addOption(
      new Option(
        '--dir <dir>',
        'archive written by `svc audit sync`: a directory or s3://BUCKET/PREFIX (required)',
      ),
    )
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit gaps`, as its handler takes them. */
export type AuditGapsOptions = OptionsOf<typeof auditGapsOptions>;

/** The argument and options of `svc audit gaps ack GAP` (commands/audit-gaps-ack.ts registers it). */
export const auditGapsAckOptions = (command: Command) =>
  command
    .argument('<gap>', 'the gap, as svc audit gaps lists it (e.g. run3.late1)')
    .addOption(
      new Option('--dir <dir>', 'archive written by `svc audit sync`: a directory or s3://BUCKET/PREFIX'),
    )
    .addOption(new Option('--reason <text>', 'why the gap is accepted (one line)').makeOptionMandatory())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit gaps ack`, as its handler takes them. */
export type AuditGapsAckOptions = OptionsOf<typeof auditGapsAckOptions>;
