// The secrets a push receiver is given, checked when the receiver calls, so a mistyped secret is a
// configuration error at once and not a stream of refused pushes.

import { SvcError } from '../../core/errors/error-classes.js';

const PREFIX = 'whsec_';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The HMAC key of a Standard Webhooks secret, `whsec_` followed by the Base64 of the key.
 * `which` names the secret in the error (never its value), e.g. `secret 2 of 3`.
 *
 * @throws {SvcError} code `config` when the prefix is missing, the rest is not Base64 or the key is empty.
 */
export function webhookSecretKey(secret: string, which = 'the secret'): Uint8Array {
  if (typeof secret !== 'string' || !secret.startsWith(PREFIX)) {
    throw new SvcError(`${which} is not a Standard Webhooks secret: it must start with whsec_`, 'config');
  }
  const text = secret.slice(PREFIX.length);
  const body = text.replace(/=+$/, '');
  if (!BASE64.test(text) || body.length % 4 === 1 || (body.length !== text.length && text.length % 4 !== 0)) {
    throw new SvcError(
      `${which} is not a Standard Webhooks secret: whsec_ must be followed by Base64`,
      'config',
    );
  }
  return Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
}

/**
 * The bearer secrets, checked: each a non-empty string without spaces (an `Authorization` value
 * cannot carry one).
 *
 * @throws {SvcError} code `config` naming the position of the bad secret.
 */
export function bearerSecrets(secrets: readonly string[]): readonly string[] {
  secrets.forEach((secret, i) => {
    if (typeof secret !== 'string' || secret === '' || /\s/.test(secret)) {
      throw new SvcError(
        `bearer secret ${i + 1} of ${secrets.length} must be a non-empty string without spaces`,
        'config',
      );
    }
  });
  return secrets;
}

/** Equal bytes, compared in time that depends on the length only (both are digests of one length). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
