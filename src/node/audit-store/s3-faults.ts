import { SvcError } from '../../core/errors/error-classes.js';
import {
  NOT_SENT_CODES,
  codeOf as socketCode,
  tlsFailureLine,
  UNTRUSTED_FIX,
} from '../../core/transport/network-errors.js';
import { proxiedFailure, proxyAnswer } from '../../core/transport/proxy-errors.js';

// What an S3 store's answers mean to the archive. Messages name the object and the store's error
// code only: an SDK error's own text may quote a request, never a credential, but a hostile store
// chooses it, so it is left out.

interface S3ErrorShape {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number };
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

/** Where a bucket archive's requests go (s3-network.ts decides), for the lines below. */
export interface S3Route {
  /** The store's `host:port` as the requests name it. */
  host: string;
  /** The proxy the requests go through; undefined when they go direct. */
  proxy: URL | undefined;
  /** How long a request may stay silent, ms (`S3StoreSettings.timeoutMs`). */
  timeoutMs?: number;
}

/** The fix of an untrusted certificate for a bucket: the AWS CLI's variable works too. */
const S3_UNTRUSTED_FIX = 'add your CA with --ca-file, AWS_CA_BUNDLE or NODE_EXTRA_CA_CERTS';

/** Certificate failures a CA does not fix, in the words of a bucket (the transports speak of base URLs). */
const BAD_CERTIFICATE: Readonly<Record<string, string>> = {
  CERT_HAS_EXPIRED: "has expired: the store must renew it (or this machine's clock is wrong)",
  CERT_NOT_YET_VALID: "is not valid yet: check this machine's clock",
  ERR_TLS_CERT_ALTNAME_INVALID:
    'is for another host name: use an endpoint (--s3-endpoint) with a name it holds',
};

/**
 * A failure of the network path (TLS, proxy, DNS) in words with its fix, or undefined: the
 * transports' lines (core/transport: network-errors.ts, proxy-errors.ts) where they fit a bucket,
 * so a proxy or certificate reads the same for an API and a bucket. The proxy is named by its
 * host and port only, never its user or password.
 */
function networkWords(error: unknown, route: S3Route | undefined): string | undefined {
  const code = socketCode(error);
  const host = route?.host ?? 'the store';
  const message = error instanceof Error ? error.message : '';
  if (code !== undefined && code in BAD_CERTIFICATE) return `certificate of ${host} ${BAD_CERTIFICATE[code]}`;
  // Node 20 says EPROTO with OpenSSL's reason (written by this machine, not the store); later ones the code.
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || (code === 'EPROTO' && /wrong version number/i.test(message)))
    return `the server at ${host} speaks plain HTTP: use an http:// endpoint (--s3-endpoint)`;
  const tls = tlsFailureLine(error, host);
  if (tls !== undefined) return tls.replace(UNTRUSTED_FIX, S3_UNTRUSTED_FIX);
  const proxy = route?.proxy;
  if (proxy) {
    // hpagent's rejection of the CONNECT request: `Bad response: <status>` (it gives no code).
    const refused = /^Bad response: (\d{3})$/.exec(message);
    if (refused) return proxyAnswer(Number(refused[1]), host, proxy).message;
    if (message === 'Proxy timeout')
      return `proxy ${proxy.host} did not answer in time (the proxy of ${host})`;
    if (code !== undefined && NOT_SENT_CODES.has(code)) return proxiedFailure(error, host, proxy).message;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    const name = route ? ` ${route.host.replace(/:\d+$/, '')}` : '';
    return `cannot resolve the store's host${name} (${code}): check the endpoint (--s3-endpoint) and DNS; behind a proxy, set HTTPS_PROXY`;
  }
  return undefined;
}

/**
 * One line for a failed S3 request on `what` (an `s3://` URL), code `io` (exit 1): an untrusted
 * certificate (with the fix), a proxy that cannot be reached or refuses, a host that does not
 * resolve, access denied, no such bucket, credentials refused or expired, a bucket without Object
 * Lock, or the store's code and HTTP status. `route` names the store's host and the proxy in use.
 * The SDK's error is the cause.
 */
export function s3Fault(error: unknown, what: string, route?: S3Route): Error {
  if (error instanceof SvcError) return error;
  const code = codeOf(error);
  const status = statusOf(error);
  const line = (text: string) => new SvcError(`${what}: ${text}`, 'io', { cause: error });
  const words = networkWords(error, route);
  if (words) return line(words);
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
  // The SDK handler's connectionTimeout / socketTimeout (s3-network.ts), after its retries.
  if (shape(error).name === 'TimeoutError') {
    const silent = route?.timeoutMs === undefined ? '' : ` for ${route.timeoutMs} ms`;
    const tries = shape(error).$metadata?.attempts;
    return line(
      `the store at ${route?.host ?? 'its endpoint'} sent nothing${silent}${tries ? ` (${tries} tries)` : ''}: a slow store or link may need a larger --timeout`,
    );
  }
  const network = (error as { code?: unknown }).code;
  if (typeof network === 'string' && NETWORK.has(network))
    return line(`cannot reach the store (${network}): check the endpoint (--s3-endpoint) and the network`);
  if (/region/i.test(code) || /region is missing/i.test((error as Error).message ?? ''))
    return line('no region: set AWS_REGION (or --s3-region)');
  return line(`the store answered ${code}${status ? ` (HTTP ${status})` : ''}`);
}
