import { HttpProblem } from './problem.js';

/** Longest request target the server parses, in characters; longer ones get 400. */
export const MAX_TARGET_LENGTH = 8192;

const BASE = 'http://reference.invalid';

/**
 * Parses an origin-form request target (`/path?query`); anything else answers 400: an
 * absolute-form (`http://host/`), authority-form or asterisk (`*`) target, one starting with
 * `//` or `/\` (a scheme-relative URL), one longer than {@link MAX_TARGET_LENGTH}, or a path with
 * bad percent-encoding.
 */
export function parseRequestTarget(target: string | undefined): URL {
  if (target === undefined || target.length > MAX_TARGET_LENGTH) {
    throw new HttpProblem(400, `Request target missing or longer than ${MAX_TARGET_LENGTH} characters`);
  }
  if (!target.startsWith('/')) throw new HttpProblem(400, 'Request target must be a path starting with /');
  let url: URL;
  try {
    url = new URL(target, BASE);
  } catch {
    throw new HttpProblem(400, 'Request target does not parse');
  }
  if (url.origin !== BASE) throw new HttpProblem(400, 'Request target must be a path, not a URL');
  try {
    decodeURIComponent(url.pathname);
  } catch {
    throw new HttpProblem(400, 'Request path has bad percent-encoding');
  }
  return url;
}
