// The one-time verification some senders make before they push: Okta's event hooks send a GET
// with `X-Okta-Verification-Challenge` and expect the value back as `{"verification": ...}`.

import { type PushHeaders, singleHeader } from './headers.js';

/** Longest challenge answered; Okta's are some 40 characters. */
const MAX_CHALLENGE_LENGTH = 1024;

/**
 * The JSON body that answers a sender's verification request, or undefined when the request is
 * not one. Answer it to the GET it came with, status 200, `Content-Type: application/json`. Only
 * Okta's challenge (`X-Okta-Verification-Challenge`, at most 1024 characters) is recognised.
 *
 * @example
 * const answer = pushChallengeAnswer(request.headers);
 * if (request.method === 'GET' && answer) return new Response(answer, { headers: { 'content-type': 'application/json' } });
 */
export function pushChallengeAnswer(headers: PushHeaders): string | undefined {
  const value = singleHeader(headers, 'x-okta-verification-challenge');
  if (typeof value !== 'string' || value === '' || value.length > MAX_CHALLENGE_LENGTH) return undefined;
  return JSON.stringify({ verification: value });
}
