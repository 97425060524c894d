// A key, with what follows when that may make it an already masked one (`ak_abcd...wxyz`).
const KEY_PATTERN = /\bak_[A-Za-z0-9_-]+(\.\.\.[A-Za-z0-9_-]{4})?/g;
const SECRET_JSON_FIELD = /("(?:encryptedAccessToken|accessToken|apiKey|api-key)"\s*:\s*")[^"]*(")/g;
// The S3 signature, credential scope and session token of a presigned URL are secrets too.
const SECRET_QUERY =
  /([?&](?:accessToken|access_token|apiKey|api-key|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token)=)[^&#\s]*/gi;
// The user name and password of a URL (`http://USER:SECRET@host`: an S3 endpoint, a proxy, a
// base URL written by hand), up to the `@` that ends them; shown as `***@`.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>]+@/gi;
// What each pattern above needs to match at all (`ak_`, a quote, an equals sign, an `@`): text
// without any of them (a request id, most messages) is returned without running the replacements.
const MAY_MATCH = /ak_|["=@]/;
const SECRET_HEADERS = new Set([
  'authorization',
  'svc-authorization',
  'cookie',
  'set-cookie',
  'proxy-authorization',
  'x-amz-security-token',
]);

/**
 * Masks an API key: `ak_abcd...wxyz` for long keys, `ak_...` for short ones, so a key can be
 * recognised in a log without being usable.
 */
export function maskKey(key: string): string {
  if (key.startsWith('ak_') && key.length >= 19) return `ak_${key.slice(3, 7)}...${key.slice(-4)}`;
  if (key.startsWith('ak_')) return 'ak_...';
  return key.length >= 16 ? `${key.slice(0, 2)}...${key.slice(-2)}` : '***';
}

/**
 * Removes secrets from text meant for a log, an error message or a terminal: every `ak_...`
 * key, the deprecated `encryptedAccessToken` and access-token values, the user name and password
 * of every URL in it (`https://***@host/`), and any extra secret passed in `secrets` (for example
 * a legacy secret key without the `ak_` prefix).
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(maskKey(secret));
  }
  if (!MAY_MATCH.test(out)) return out;
  return out
    .replace(KEY_PATTERN, (match: string, tail: string | undefined) => {
      const key = tail ? match.slice(0, -tail.length) : match;
      // Masked already (4 characters, `...`, 4 characters): leave it, so masking is stable.
      if (tail && key.length === 7) return match;
      return maskKey(key) + (tail ?? '');
    })
    .replace(SECRET_JSON_FIELD, '$1[redacted]$2')
    .replace(SECRET_QUERY, '$1[redacted]')
    .replace(URL_USERINFO, '$1***@');
}

/** A copy of `headers` with credential headers masked and every other value passed through {@link redact}. */
export function redactHeaders(
  headers: Readonly<Record<string, string | undefined>>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (SECRET_HEADERS.has(name.toLowerCase())) {
      const bearer = /^Bearer\s+/i.exec(value);
      out[name] = bearer ? `Bearer ${maskKey(value.slice(bearer[0].length))}` : maskKey(value);
    } else {
      out[name] = redact(value, secrets);
    }
  }
  return out;
}
