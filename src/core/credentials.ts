import { LocalValidationError } from './errors/error-classes.js';

/** The four interfaces, each of which may use its own key. */
export type ApiInterface = 'tax' | 'audit' | 'captcha' | 'legacy';

/** Keys as given to the client; per-interface keys fall back to `apiKey`. */
export interface Credentials {
  apiKey?: string | undefined;
  auditApiKey?: string | undefined;
  captchaApiKey?: string | undefined;
  legacyApiKey?: string | undefined;
}

/** The key used for one interface. */
export function keyFor(credentials: Credentials, api: ApiInterface): string | undefined {
  const specific =
    api === 'audit'
      ? credentials.auditApiKey
      : api === 'captcha'
        ? credentials.captchaApiKey
        : api === 'legacy'
          ? credentials.legacyApiKey
          : undefined;
  return specific || credentials.apiKey || undefined;
}

/** Every configured key, for redaction. */
export function allKeys(credentials: Credentials): string[] {
  return [
    credentials.apiKey,
    credentials.auditApiKey,
    credentials.captchaApiKey,
    credentials.legacyApiKey,
  ].filter((k): k is string => typeof k === 'string' && k.length > 0);
}

// Printable ASCII without spaces: what an HTTP header carries unchanged.
const KEY_FORMAT = /^[\x21-\x7e]+$/;

/**
 * Checks a key before it is sent: a key with a space, a line break or a non-ASCII character
 * throws {@link LocalValidationError} (never naming the key) and nothing is sent.
 */
export function checkKeyFormat(key: string): void {
  if (!KEY_FORMAT.test(key)) {
    throw new LocalValidationError(
      [{ path: 'apiKey', message: 'must be printable ASCII without spaces or line breaks' }],
      'API key',
    );
  }
}
