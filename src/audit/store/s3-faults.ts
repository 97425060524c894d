import { SvcError } from '../../core/errors/error-classes.js';

// What an S3 store's answers mean to the archive. Messages name the object and the store's error
// code only: an SDK error's own text may quote a request, never a credential, but a hostile store
// chooses it, so it is left out.

interface S3ErrorShape {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

const shape = (error: unknown): S3ErrorShape => (typeof error === 'object' && error !== null ? error : {});
const codeOf = (error: unknown): string => shape(error).Code ?? shape(error).name ?? 'Error';
const statusOf = (error: unknown): number | undefined => shape(error).$metadata?.httpStatusCode;

/** 412 to `If-None-Match: *` or `If-Match`: the object exists (or changed). */
export const isPreconditionFailed = (error: unknown): boolean =>
  codeOf(error) === 'PreconditionFailed' || statusOf(error) === 412;

/** The object (or the multipart upload) is not there. */
export const isAbsent = (error: unknown): boolean =>
  ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes(codeOf(error)) ||
  (statusOf(error) === 404 && codeOf(error) !== 'NoSuchBucket');

/** 416 to a `Range` GET: the range starts past the object's end (S3's answer for an empty object). */
export const isInvalidRange = (error: unknown): boolean =>
  codeOf(error) === 'InvalidRange' || statusOf(error) === 416;

/** Credentials the store refused or that ran out: nothing was half-written, a rerun continues. */
const CREDENTIALS = new Set([
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidToken',
  'TokenRefreshRequired',
  'CredentialsProviderError',
]);

/** Socket errors: the store was not reached (after the SDK's retries). */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * One line for a failed S3 request on `what` (an `s3://` URL), code `io` (exit 1): access denied,
 * no such bucket, credentials refused or expired, a bucket without Object Lock, or the store's code
 * and HTTP status. The SDK's error is the cause.
 */
export function s3Fault(error: unknown, what: string): Error {
  if (error instanceof SvcError) return error;
  const code = codeOf(error);
  const status = statusOf(error);
  const line = (text: string) => new SvcError(`${what}: ${text}`, 'io', { cause: error });
  if (code === 'NoSuchBucket') return line('no such bucket (NoSuchBucket)');
  if (code === 'AccessDenied' || (status === 403 && !CREDENTIALS.has(code)))
    return line(`access denied (${code}): the credentials may not use this bucket or prefix`);
  if (CREDENTIALS.has(code))
    return line(
      `the store refused the credentials (${code}); the archive is whole: run again with valid credentials to continue`,
    );
  if (code === 'InvalidRequest' && /object ?lock/i.test((error as Error).message ?? ''))
    return line(
      'the bucket has no Object Lock, so --retain-days cannot be kept: use a bucket created with Object Lock',
    );
  const network = (error as { code?: unknown }).code;
  if (typeof network === 'string' && NETWORK.has(network))
    return line(`cannot reach the store (${network}): check the endpoint (--s3-endpoint) and the network`);
  if (/region/i.test(code) || /region is missing/i.test((error as Error).message ?? ''))
    return line('no region: set AWS_REGION (or --s3-region)');
  return line(`the store answered ${code}${status ? ` (HTTP ${status})` : ''}`);
}
