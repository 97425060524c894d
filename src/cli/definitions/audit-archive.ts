import { type Command, Option } from '@commander-js/extra-typings';
import type { OptionsOf } from '../command.js';
import {
  requireRetentionOption,
  retainDaysOption,
  retainModeOption,
  s3EndpointOption,
  s3PathStyleOption,
  s3RegionOption,
  workDirOption,
} from './bucket-options.js';
import { fileModeOption, forceOption } from './output-options.js';
import { retryForOption } from './retry-for-option.js';

/** `svc audit sync`, before its action. */
export const auditSyncCommand = (audit: Command) =>
  audit
    .command('sync')
    .description(
      'everything new since the last run into DIR: one NDJSON file and one hash-chained manifest per run; resumable',
    )
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

/** The options of `svc audit sync`. */
export type AuditSyncOptions = OptionsOf<typeof auditSyncCommand>;

/** `svc audit verify DIR`, before its action. */
export const auditVerifyCommand = (audit: Command) =>
  audit
    .command('verify')
    .description(
      're-hash the files of a sync archive, walk its manifest chain, check counts and gaps; exit 0 only when whole',
    )
    .argument('<dir>', 'archive written by `svc audit sync`: a directory or s3://BUCKET/PREFIX')
    .addOption(
      new Option('--public-key <file>', 'Ed25519 public key (PEM): every manifest must be signed by it'),
    )
    .addOption(
      new Option(
        '--max-age <duration>',
        'fail when the newest run ends longer ago than this, e.g. 36h (catches lost or rolled-back runs)',
      ),
    )
    .addOption(
      new Option(
        '--head <sha256>',
        'fail unless the chain ends at the manifest with this sha256 (the head a sync printed)',
      ),
    )
    .addOption(requireRetentionOption())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit verify`. */
export type AuditVerifyOptions = OptionsOf<typeof auditVerifyCommand>;

/** `svc audit gaps`, before its action. */
export const auditGapsCommand = (audit: Command) =>
  audit
    .command('gaps')
    .description(
      'the gaps a sync archive recorded: range, cause, whether the API may still hold them, status',
    )
    .addOption(
      new Option(
        '--dir <dir>',
        'archive written by `svc audit sync`: a directory or s3://BUCKET/PREFIX (required)',
      ),
    )
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit gaps`. */
export type AuditGapsOptions = OptionsOf<typeof auditGapsCommand>;

/** `svc audit gaps ack GAP`, before its action. */
export const auditGapsAckCommand = (gaps: Command) =>
  gaps
    .command('ack')
    .description(
      "acknowledge a gap that cannot be repaired; recorded (and signed) in the next run's manifest",
    )
    .argument('<gap>', 'the gap, as svc audit gaps lists it (e.g. run3.late1)')
    .addOption(
      new Option('--dir <dir>', 'archive written by `svc audit sync`: a directory or s3://BUCKET/PREFIX'),
    )
    .addOption(new Option('--reason <text>', 'why the gap is accepted (one line)').makeOptionMandatory())
    .addOption(s3EndpointOption())
    .addOption(s3RegionOption())
    .addOption(s3PathStyleOption());

/** The options of `svc audit gaps ack`. */
export type AuditGapsAckOptions = OptionsOf<typeof auditGapsAckCommand>;

/** `svc audit copy SRC DST`, before its action. */
export const auditCopyCommand = (audit: Command) =>
  audit
    .command('copy')
    .description(
      "copy a sync archive between a directory and a bucket, object for object, each read back and compared (sha256); only the archive's objects (anything else is named and left)",
    )
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

/** The options of `svc audit copy`. */
export type AuditCopyOptions = OptionsOf<typeof auditCopyCommand>;
