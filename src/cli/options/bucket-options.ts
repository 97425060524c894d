import { Option } from '@commander-js/extra-typings';
import { choiceOption } from '../choices.js';

// The options of a command that takes an archive location, for an `s3://bucket/prefix` one. Where
// they are not given, the AWS SDK's own settings apply (AWS_REGION, AWS_PROFILE, credentials).

/** `--s3-endpoint <url>`: an S3-compatible store's endpoint (MinIO, R2, a test server). */
export const s3EndpointOption = () =>
  new Option(
    '--s3-endpoint <url>',
    'with s3://: the S3 endpoint of an S3-compatible store, e.g. http://127.0.0.1:9000 (default: AWS_ENDPOINT_URL_S3, else AWS)',
  );

/** `--s3-region <region>`: the bucket's region. */
export const s3RegionOption = () =>
  new Option(
    '--s3-region <region>',
    "with s3://: the bucket's region (default: AWS_REGION or the profile's)",
  );

/** `--s3-path-style <on|off>`: path-style addressing. */
export const s3PathStyleOption = () =>
  choiceOption(
    '--s3-path-style <on|off>',
    'with s3://: path-style addressing (host/bucket/key); default on with a custom endpoint, off for AWS',
    ['on', 'off'] as const,
  );

/** `--work-dir <dir>`: where a bucket archive's run keeps its export until the run ends. */
export const workDirOption = () =>
  new Option(
    '--work-dir <dir>',
    "with s3://: local folder for the run's transient export (yours alone, mode 0700; default: ~/.cache/svc, %LOCALAPPDATA%\\svc on Windows); nothing the archive needs stays there",
  );

/** `--retain-days <n>`: Object Lock retention on every object a run writes. */
export const retainDaysOption = () =>
  new Option(
    '--retain-days <n>',
    'with s3://: Object Lock retention of N days (1 to 36500) on every file and manifest the run writes; the bucket must have Object Lock',
  );

/** `--retain-mode <mode>`: the Object Lock mode. */
export const retainModeOption = () =>
  choiceOption(
    '--retain-mode <mode>',
    'with --retain-days: governance (a privileged user may lift it) or compliance (no one may)',
    ['governance', 'compliance'] as const,
  ).default('governance' as const);

/** `--require-retention [days]`: verify fails where an object has no Object Lock retention (or less than asked). */
export const requireRetentionOption = () =>
  new Option(
    '--require-retention [days]',
    'with s3://: fail where a file or manifest has no Object Lock retention, or (with DAYS) one ending sooner than DAYS from now',
  );
