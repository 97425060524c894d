import type { Command } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import {
  retainDaysOption,
  retainModeOption,
  s3EndpointOption,
  s3PathStyleOption,
  s3RegionOption,
} from './bucket-options.js';

/** The arguments and options of `svc audit copy SRC DST` (commands/audit-copy.ts registers it). */
export const auditCopyOptions = (command: Command) =>
  command
    .argument('<src>', 'archive to copy: a directory or s3://BUCKET/PREFIX')
    .argument(
      '<dst>',
      'where to: a directory or s3://BUCKET/PREFIX, empty (or left by an interrupted copy of SRC, which then goes on)',
    )
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption())
    .addOption(retainDaysOption())
    .addOption(retainModeOption());

/** The options of `svc audit copy`, as its handler takes them. */
export type AuditCopyOptions = OptionsOf<typeof auditCopyOptions>;
