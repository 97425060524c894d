import { LocalValidationError, TokenDecodeError } from '../core/errors/error-classes.js';
import { isVerificationId } from './vocabulary.js';

/** Longest token accepted, in characters; checked before anything is decoded. */
export const MAX_TOKEN_LENGTH = 4096;

/** A decoded verification token. */
export interface VerificationToken {
  /** Id used to fetch the result. */
  verificationId: string;
  /**
   * @deprecated Exposed for inspection only and never used as a host: sending an API key to a
   * host named by a client-supplied token would leak the key. The configured base URL is used.
   */
  apiEndpoint?: string | undefined;
  /** @deprecated Encrypted access token of the oldest widget versions; a secret, never logged. */
  encryptedAccessToken?: string | undefined;
}

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

function base64Bytes(text: string): Uint8Array {
  if (!STANDARD.test(text) && !URL_SAFE.test(text)) {
    const bad = [...text].findIndex((c) => !/[A-Za-z0-9+/_=-]/.test(c));
    const where = bad >= 0 ? `character ${JSON.stringify(text[bad])} at position ${bad}` : 'mixed alphabets';
    throw new TokenDecodeError('NOT_BASE64', `not Base64 (${where})`);
  }
  const body = text.replace(/=+$/, '');
  const padded = body.length !== text.length;
  if (body.length % 4 === 1 || (padded && text.length % 4 !== 0)) {
    throw new TokenDecodeError('NOT_BASE64', 'not Base64 (wrong length or padding)');
  }
  // atob rather than Buffer, so the decoder also runs on edge runtimes.
  const binary = atob(body.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function preview(value: string): string {
  return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}...` : JSON.stringify(value);
}

/**
 * Decodes a verification token: Base64 (standard or URL-safe, padding optional) of a JSON object
 * with a `verificationId` of 8-4-4-4-12 hex digits. Unknown keys are ignored.
 *
 * @throws {TokenDecodeError} with a `reason` (`EMPTY`, `TOO_LONG`, `NOT_BASE64`, `NOT_JSON`,
 *   `NOT_OBJECT`, `MISSING_ID`, `BAD_ID`) for anything else; nothing is ever sent.
 * @example
 * const { verificationId } = decodeVerificationToken(form.get('svc-verification-token'));
 */
export function decodeVerificationToken(token: string): VerificationToken {
  if (typeof token !== 'string') throw new TokenDecodeError('EMPTY', 'token must be a string');
  // Length first, so an oversized input is never decoded.
  if (token.length > MAX_TOKEN_LENGTH) {
    throw new TokenDecodeError(
      'TOO_LONG',
      `token is ${token.length} characters long; at most ${MAX_TOKEN_LENGTH} are allowed`,
    );
  }
  const text = token.trim();
  if (text === '') throw new TokenDecodeError('EMPTY', 'token is empty');
  const bytes = base64Bytes(text);
  let json: string;
  let value: unknown;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    value = JSON.parse(json);
  } catch {
    throw new TokenDecodeError('NOT_JSON', 'Base64 content is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TokenDecodeError('NOT_OBJECT', 'token JSON is not an object');
  }
  const id = (value as Record<string, unknown>).verificationId;
  if (id === undefined || id === null || id === '') {
    throw new TokenDecodeError('MISSING_ID', 'token has no verificationId');
  }
  const { apiEndpoint: endpoint, encryptedAccessToken: encrypted } = value as Record<string, unknown>;
  // The rule of the `VerificationTokenPayload` schema, checked without zod so that decoding (on
  // every verify) loads none: the id has the shape of VERIFICATION_ID_PATTERN, the deprecated
  // fields are kept only when they are strings (anything else is dropped, not an error). A test
  // checks that this and the schema agree on any payload.
  if (typeof id !== 'string' || !isVerificationId(id)) {
    const shown = typeof id === 'string' ? preview(id) : `a ${typeof id}`;
    throw new TokenDecodeError('BAD_ID', `verificationId ${shown} is not 8-4-4-4-12 hexadecimal digits`);
  }
  return {
    verificationId: id,
    apiEndpoint: typeof endpoint === 'string' ? endpoint : undefined,
    encryptedAccessToken: typeof encrypted === 'string' ? encrypted : undefined,
  };
}

/**
 * Encodes a token the way the widget does (standard Base64 of the JSON object). For tests and
 * tooling; a backend only decodes.
 */
export function encodeVerificationToken(token: VerificationToken | Record<string, unknown>): string {
  const bytes = new TextEncoder().encode(JSON.stringify(token));
  return btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
}

/**
 * The verification id of `idOrToken`: a value shaped like an id is taken as is, anything else is
 * decoded as a token.
 *
 * @throws {LocalValidationError} it is not well-formed Unicode (a lone surrogate), so it could
 *   not be encoded into a URL; nothing was sent.
 * @throws {TokenDecodeError} when it is neither.
 */
export function resolveVerificationId(idOrToken: string): string {
  assertWellFormed(idOrToken, 'verificationId');
  if (typeof idOrToken === 'string' && isVerificationId(idOrToken.trim())) return idOrToken.trim();
  return decodeVerificationToken(idOrToken).verificationId;
}

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Throws {@link LocalValidationError} when `value` is a string that is not well-formed Unicode (a
 * lone surrogate), which URL encoding would refuse or silently replace.
 */
export function assertWellFormed(value: unknown, path: string): void {
  // In a `u` regex a surrogate pair is one code point, so \p{Cs} matches only lone surrogates.
  if (typeof value === 'string' && LONE_SURROGATE.test(value)) {
    throw new LocalValidationError(
      [{ path, message: 'is not well-formed Unicode (contains a lone surrogate)' }],
      'bot-check request',
    );
  }
}
