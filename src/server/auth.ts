import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Principal } from './fixtures.js';
import { HttpProblem, paymentRequired } from './problem.js';

/** The four interfaces differ in how keys travel and which status a missing key gets. */
export type ApiName = 'tax' | 'audit' | 'captcha' | 'legacy';

/** A feature of the plan a route needs. */
export type Feature = 'scheduledValidation' | 'auditLog';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Finds the principal of a presented key, comparing against every known key in constant time
 * (hashes of equal length, no early exit), so response timing does not leak key prefixes.
 */
export function findPrincipal(
  principals: ReadonlyMap<string, Principal>,
  presented: string,
): Principal | undefined {
  const wanted = digest(presented);
  let found: Principal | undefined;
  for (const [key, principal] of principals) {
    if (timingSafeEqual(digest(key), wanted)) found = principal;
  }
  return found;
}

function presentedKey(req: IncomingMessage, api: ApiName): string | undefined {
  if (api === 'legacy') {
    const header = req.headers['svc-authorization'];
    return typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
  }
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Applies the reference's authentication rules: a missing key is 401 on tax validation and the
 * audit log and 403 on both bot-check APIs; an unknown or expired key is 403; a locked project or a
 * plan without the feature is 402.
 */
export function authenticate(
  req: IncomingMessage,
  principals: ReadonlyMap<string, Principal>,
  api: ApiName,
  feature?: Feature,
): Principal {
  const key = presentedKey(req, api);
  const missingStatus = api === 'tax' || api === 'audit' ? 401 : 403;
  if (key === undefined) {
    throw new HttpProblem(
      missingStatus,
      api === 'legacy' ? 'svc-authorization header missing' : 'API key missing',
    );
  }
  const principal = findPrincipal(principals, key);
  if (!principal) throw new HttpProblem(403, 'API key invalid');
  if (principal.expired) throw new HttpProblem(403, 'API key expired');
  if (principal.kind === 'captcha-secret' && api !== 'legacy') throw new HttpProblem(403, 'API key invalid');
  if (principal.kind === 'agency' && api !== 'audit')
    throw new HttpProblem(403, 'An agency key cannot call this API');
  if (principal.locked) throw paymentRequired('project-locked', 'Project is locked');
  if (feature === 'scheduledValidation' && !principal.plan.scheduledValidation) {
    throw paymentRequired('feature-not-in-plan', 'The plan does not include scheduled validation');
  }
  if (feature === 'auditLog' && !principal.plan.auditLog) {
    throw paymentRequired('feature-not-in-plan', 'The plan does not include the audit log API');
  }
  return principal;
}
