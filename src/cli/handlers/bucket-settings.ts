import type { RetainMode, S3StoreSettings } from '../../node/audit-store/s3-settings.js';
import type { CommandContext } from '../context.js';
import { readCaFile } from '../network-settings.js';
import { parseIntOption } from '../usage-error.js';

/** The bucket flags a command may have (see options/bucket-options.ts). */
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
 * path-style addressing is on unless `--s3-path-style off`. The proxy is the run's (`--proxy`,
 * `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`, profile `proxy`); the trusted CAs, added to Node's roots,
 * are `--ca-file` (`SVC_CA_FILE`, profile `ca-file`) and the AWS CLI's `AWS_CA_BUNDLE`, each file
 * read and checked now (a usage error, exit 2, when it cannot be read or holds no PEM
 * certificate). A store request may stay silent for `--timeout` (`SVC_TIMEOUT`, profile
 * `timeout`; default 30 s), as an API request may. Credentials are left to the SDK's chain. Warnings go to stderr, S3 requests to
 * `--debug`.
 */
export function bucketSettings(ctx: CommandContext, flags: BucketFlags): S3StoreSettings {
  const endpoint =
    flags.s3Endpoint ?? ctx.settings.env('AWS_ENDPOINT_URL_S3') ?? ctx.settings.env('AWS_ENDPOINT_URL');
  const region = flags.s3Region ?? ctx.settings.env('AWS_REGION') ?? ctx.settings.env('AWS_DEFAULT_REGION');
  const retainDays =
    flags.retainDays === undefined ? undefined : parseIntOption(flags.retainDays, '--retain-days', 1, 36_500);
  const proxy = ctx.settings.proxySettings().settings;
  const timeoutMs = ctx.settings.timeoutMs();
  const settings: S3StoreSettings = {
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(endpoint !== undefined && { endpoint }),
    ...(proxy && { proxy }),
    ...(region !== undefined && { region }),
    ...(flags.s3PathStyle !== undefined && { pathStyle: flags.s3PathStyle === 'on' }),
    ...(retainDays !== undefined && { retainDays, retainMode: flags.retainMode ?? 'governance' }),
    onWarning: (line) => ctx.out.warn(line),
    ...(ctx.settings.debug && { debug: (line: string) => ctx.out.debug(line) }),
  };
  // Read when a bucket archive is opened, not before: a folder archive never reads AWS_CA_BUNDLE.
  let ca: string[] | undefined;
  Object.defineProperty(settings, 'ca', {
    enumerable: true,
    get: () => {
      ca ??= bucketCa(ctx);
      return ca.length > 0 ? ca : undefined;
    },
  });
  return settings;
}

/** `--ca-file` (`SVC_CA_FILE`, profile `ca-file`) and `AWS_CA_BUNDLE`, each file read and checked. */
function bucketCa(ctx: CommandContext): string[] {
  const bundle = ctx.settings.env('AWS_CA_BUNDLE')?.trim();
  return [...(ctx.settings.caCertificates() ?? []), ...(bundle ? readCaFile(bundle, 'AWS_CA_BUNDLE') : [])];
}
