import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import {
  retainDaysOption,
  retainModeOption,
  s3EndpointOption,
  s3PathStyleOption,
  s3RegionOption,
  workDirOption,
} from './bucket-options.js';
import { fileModeOption, forceOption } from './output-options.js';
import { retryForOption } from './retry-for-option.js';

/** The options of `svc audit sync` (commands/audit-sync.ts registers it). */
export const auditSyncOptions = (command: Command) =>
  command
    .addOption(
      new Option(
        '--dir <dir>',
        'archive: a directory or s3://BUCKET/PREFIX (files, manifests, sync state, lock)',
      ),
    )
    .addOption(
      new Option(
        '--projects <file>',
        'many projects in one run: JSON [{name, dir, keyEnv}] (keyEnv: an SVC_ variable holding the key)',
      ),
    )
    .addOption(new Option('--parallel <n>', 'with --projects: projects synced at once, 1 to 64 (default 4)'))
    .addOption(
      new Option(
        '--backfill',
        'fetch again the gaps of late events the API still holds, each as a run of its own',
      ),
    )
    .addOption(
      new Option(
        '--since <timestamp>',
        'start of the first run, ISO 8601 (default: all the API still keeps); ignored once DIR holds a run',
      ),
    )
    .addOption(
      new Option('--lag <duration>', "stop this long before the server's now, e.g. 300, 90s, 5m").default(
        '5m',
      ),
    )
    .addOption(
      new Option(
        '--overlap <duration>',
        're-read this long before the last run end for late events, e.g. 10m',
      ).default('10m'),
    )
    .addOption(new Option('--gzip', "write the run's file gzip-compressed (.ndjson.gz)"))
    .addOption(new Option('--sign-key <file>', 'Ed25519 private key (PEM) to sign each manifest'))
    .addOption(new Option('--page-size <n>', 'events per request, 1 to 1000 (default 1000)'))
    .addOption(forceOption('a data or conflicts file in DIR no manifest lists'))
    .addOption(fileModeOption())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption())
    .addOption(workDirOption())
    .addOption(retainDaysOption())
    .addOption(retainModeOption())
    .addOption(retryForOption());

/** The options of `svc audit sync`, as its handler takes them. */
export type AuditSyncOptions = OptionsOf<typeof auditSyncOptions>;
