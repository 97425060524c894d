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

/** Where a bucket archive's requests go (s3-network.ts decides), for the lines below. */
export interface S3Route {
  /** The store's `host:port` as the requests name it. */
  host: string;
  /** The proxy the requests go through; undefined when they go direct. */
  proxy: URL | undefined;
}

/** A proxy as messages name it: scheme, host and port, never its user or password. */
export const proxyName = (proxy: URL): string => `${proxy.protocol}//${proxy.host}`;

/** Certificate checks that fail because the issuer is not among the trusted roots: the user's CA fixes them. */
const NOT_TRUSTED: Readonly<Record<string, string>> = {
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in chain',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
  UNABLE_TO_GET_ISSUER_CERT: 'issuer certificate not found',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'issuer certificate not found',
  CERT_UNTRUSTED: 'certificate not trusted',
};

/** Other certificate failures: a CA does not fix them. */
const BAD_CERTIFICATE: Readonly<Record<string, string>> = {
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet',
  CERT_REVOKED: 'was revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'is for another host name',
};

/** Failures of the connection to a proxy: with one in use, the store is never connected to directly. */
const PROXY_UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The Node error code of a request failure, on the error or its cause. */
function socketCode(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | undefined)?.code;
  if (typeof own === 'string') return own;
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof cause === 'string' ? cause : undefined;
}

/**
 * A failure of the network path (TLS, proxy, DNS) in words with its fix, or undefined. The texts
 * are the product's own: the proxy is named by scheme, host and port only, never its user or password.
 */
function networkWords(error: unknown, route: S3Route | undefined): string | undefined {
  const code = socketCode(error);
  const host = route?.host ?? 'the store';
  const proxy = route?.proxy;
  const viaHttpsProxy = proxy?.protocol === 'https:' ? ` (or of the proxy ${proxyName(proxy)})` : '';
  if (code !== undefined && code in NOT_TRUSTED)
    return `certificate of ${host}${viaHttpsProxy} not trusted (${NOT_TRUSTED[code]}): add your CA with --ca-file, AWS_CA_BUNDLE or NODE_EXTRA_CA_CERTS`;
  if (code !== undefined && code in BAD_CERTIFICATE)
    return `certificate of ${host}${viaHttpsProxy} ${BAD_CERTIFICATE[code]} (${code}): the store's certificate must be replaced, a CA does not help`;
  // Node 20 says EPROTO with OpenSSL's own reason (written here, not by the store), later ones the code.
  const message = error instanceof Error ? error.message : '';
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || (code === 'EPROTO' && /wrong version number/i.test(message)))
    return `${host} does not answer https (${code}: wrong version number): use an http:// endpoint (--s3-endpoint) if the store has no TLS`;
  if (proxy) {
    const name = proxyName(proxy);
    // hpagent's rejection of the CONNECT request: `Bad response: <status>` (it gives no code).
    const refused = /^Bad response: (\d{3})$/.exec(message);
    // 407, or 401 as tinyproxy answers a CONNECT with wrong credentials.
    if (refused?.[1] === '407' || refused?.[1] === '401') {
      const status = `HTTP ${refused[1]}${refused[1] === '407' ? ' Proxy Authentication Required' : ''}`;
      return proxy.username === ''
        ? `the proxy ${name} asks for credentials (${status}): put them in the proxy URL (USER:PASSWORD@ before the host)`
        : `the proxy ${name} refused the credentials (${status}): check the user and password of the proxy URL`;
    }
    if (refused) return `the proxy ${name} did not connect to ${host} (HTTP ${refused[1]})`;
    if (message === 'Proxy timeout') return `the proxy ${name} did not answer in time`;
    if (code !== undefined && PROXY_UNREACHABLE.has(code))
      return `cannot reach the proxy ${name} (${code}): check the proxy setting (--proxy, HTTPS_PROXY, HTTP_PROXY) or list ${host} in NO_PROXY`;
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
  const network = (error as { code?: unknown }).code;
  if (typeof network === 'string' && NETWORK.has(network))
    return line(`cannot reach the store (${network}): check the endpoint (--s3-endpoint) and the network`);
  if (/region/i.test(code) || /region is missing/i.test((error as Error).message ?? ''))
    return line('no region: set AWS_REGION (or --s3-region)');
  return line(`the store answered ${code}${status ? ` (HTTP ${status})` : ''}`);
}
