import { SvcError } from '../../core/errors/error-classes.js';
import { DEFAULT_SHIP_INDEX, SHIP_KINDS, type ShipAuditOptions, type ShipKind } from './options.js';

/** A ship's destination, checked: its base URL (no credentials, no trailing slash), its index, its credential header. */
export interface ResolvedDestination {
  kind: ShipKind;
  base: string;
  index: string | null;
  /** The `authorization` header, when credentials were given. Never shown. */
  headers: Record<string, string>;
}

// Elasticsearch's rules for an index name (OpenSearch's are the same): lower case, none of
// `\ / * ? " < > | , #`, space or `:`, not starting with `-`, `_` or `+`, not `.` or `..`, at most 255 bytes.
const BAD_INDEX = /[\\/*?"<>|,# :A-Z]/;

/**
 * The destination of a ship from its options, or a `config` {@link SvcError}: an http(s) URL with
 * no user name or password in it (credentials go in `credentials`, so none is ever printed with
 * the URL), an index Elasticsearch accepts, and credentials that fit the kind.
 */
export function resolveDestination(
  options: Pick<ShipAuditOptions, 'dest' | 'kind' | 'index' | 'credentials'>,
): ResolvedDestination {
  const { kind } = options;
  if (!SHIP_KINDS.includes(kind))
    throw new SvcError(`kind must be one of ${SHIP_KINDS.join(', ')}, got '${String(kind)}'`, 'config');
  let url: URL;
  try {
    url = new URL(options.dest);
  } catch {
    throw new SvcError(
      `the destination is not a URL: ${options.dest.replace(/\/\/[^/@]*@/, '//***@')}`,
      'config',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SvcError(`the destination must be an http:// or https:// URL, got ${url.protocol}`, 'config');
  if (url.username !== '' || url.password !== '')
    throw new SvcError(
      'the destination URL holds a user name or password: give credentials apart from the URL, so they are never shown with it',
      'config',
    );
  if (url.search !== '' || url.hash !== '')
    throw new SvcError('the destination URL must not hold a query or a fragment', 'config');
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  const index = kind === 'splunk-hec' ? (options.index ?? null) : (options.index ?? DEFAULT_SHIP_INDEX);
  if (index !== null) checkIndex(kind, index);
  return { kind, base, index, headers: credentialHeaders(kind, options.credentials ?? {}) };
}

function checkIndex(kind: ShipKind, index: string): void {
  const bad =
    index === '' ||
    Buffer.byteLength(index, 'utf8') > 255 ||
    (kind !== 'splunk-hec' &&
      (BAD_INDEX.test(index) || /^[-_+]/.test(index) || index === '.' || index === '..'));
  if (bad)
    throw new SvcError(
      kind === 'splunk-hec'
        ? `the index must be a Splunk index name of at most 255 bytes, got '${index}'`
        : `the index must be an Elasticsearch index or data stream name (lower case, no spaces or \\ / * ? " < > | , # :, not starting with - _ +), got '${index}'`,
      'config',
    );
}

function credentialHeaders(
  kind: ShipKind,
  credentials: NonNullable<ShipAuditOptions['credentials']>,
): Record<string, string> {
  const { apiKey, username, password, token } = credentials;
  if (kind === 'splunk-hec') {
    if (apiKey !== undefined || username !== undefined || password !== undefined)
      throw new SvcError('a Splunk HEC takes a token, not an API key, user name or password', 'config');
    if (token === undefined || token.trim() === '')
      throw new SvcError('a Splunk HEC needs its token (Authorization: Splunk TOKEN)', 'config');
    return { authorization: `Splunk ${token.trim()}` };
  }
  if (token !== undefined)
    throw new SvcError(`${kind} takes an API key, or a user name and password, not a HEC token`, 'config');
  if ((username === undefined) !== (password === undefined))
    throw new SvcError('Basic authentication needs both the user name and the password', 'config');
  if (apiKey !== undefined && username !== undefined)
    throw new SvcError('give an API key or a user name and password, not both', 'config');
  if (apiKey !== undefined) return { authorization: `ApiKey ${apiKey.trim()}` };
  if (username !== undefined)
    return { authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` };
  return {};
}
