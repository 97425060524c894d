import { SvcError } from './errors/error-classes.js';

/**
 * The base URL a client sends to: required, http or https, without credentials.
 *
 * @throws {SvcError} code `config` when it is missing or not such a URL.
 */
export function parseBaseUrl(value: string | URL | undefined): URL {
  if (value === undefined) {
    throw new SvcError(
      'baseUrl is required (option baseUrl, or SVC_BASE_URL with SvcClient.fromEnv())',
      'config',
    );
  }
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new SvcError(`baseUrl is not a valid URL: ${String(value)}`, 'config');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SvcError(`baseUrl must use http or https, got ${url.protocol}`, 'config');
  }
  if (url.username || url.password) throw new SvcError('baseUrl must not contain credentials', 'config');
  return url;
}
