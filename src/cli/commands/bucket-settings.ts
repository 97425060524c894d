import type { RetainMode, S3StoreSettings } from '../../audit/store/s3-settings.js';
import type { CommandContext } from '../context.js';
import { parseIntOption } from '../usage-error.js';

/** The bucket flags a command may have (see definitions/bucket-options.ts). */
export interface BucketFlags {
  s3Endpoint?: string;
  s3Region?: string;
  s3PathStyle?: 'on' | 'off';
  retainDays?: string;
  retainMode?: RetainMode;
}

/**
 * The settings of an `s3://` archive from the flags and the environment (read through the run's
 * settings, the one place the CLI reads it): the endpoint is `--s3-endpoint`, else
 * `AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL`, and the region `--s3-region`, else `AWS_REGION`,
 * else `AWS_DEFAULT_REGION`, as the AWS CLI takes them (else the SDK's profile); with an endpoint,
 * path-style addressing is on unless `--s3-path-style off`. Credentials are left to the SDK's chain. Warnings
 * go to stderr, S3 requests to `--debug`.
 */
export function bucketSettings(ctx: CommandContext, flags: BucketFlags): S3StoreSettings {
  const endpoint =
    flags.s3Endpoint ?? ctx.settings.env('AWS_ENDPOINT_URL_S3') ?? ctx.settings.env('AWS_ENDPOINT_URL');
  const region = flags.s3Region ?? ctx.settings.env('AWS_REGION') ?? ctx.settings.env('AWS_DEFAULT_REGION');
  const retainDays =
    flags.retainDays === undefined ? undefined : parseIntOption(flags.retainDays, '--retain-days', 1, 36_500);
  return {
    ...(endpoint !== undefined && { endpoint }),
    ...(region !== undefined && { region }),
    ...(flags.s3PathStyle !== undefined && { pathStyle: flags.s3PathStyle === 'on' }),
    ...(retainDays !== undefined && { retainDays, retainMode: flags.retainMode ?? 'governance' }),
    onWarning: (line) => ctx.out.warn(line),
    ...(ctx.settings.debug && { debug: (line: string) => ctx.out.debug(line) }),
  };
}
