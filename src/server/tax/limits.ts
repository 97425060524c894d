import { createHash } from 'node:crypto';
import { precheck } from '../../tax/precheck/index.js';
import type { Principal } from '../fixtures.js';
import { paymentRequired } from '../problem.js';
import type { TaxStore } from './store.js';

type Identifier = { countryCode: string; rawValue: string };

function identifierKey(body: Identifier): string {
  return `${body.countryCode}:${precheck(body.countryCode, body.rawValue).normalized}`;
}

/** The stable `taxIdentifierId` of an identifier (`CC:normalized`) in a project. */
export function taxIdentifierId(projectId: string, key: string): string {
  return `taxid_${createHash('sha256').update(`${projectId}:${key}`).digest('hex').slice(0, 20)}`;
}

/** 402 when storing the new identifiers of `bodies` would pass the plan's limit. */
export function checkIdentifierLimit(
  store: TaxStore,
  principal: Principal,
  bodies: ReadonlyArray<Identifier>,
): void {
  const limit = principal.plan.identifierLimit;
  if (limit === null) return;
  const known = store.identifiers.get(principal.ownerId) ?? new Set<string>();
  const fresh = new Set(bodies.map((b) => identifierKey(b)).filter((k) => !known.has(k)));
  if (known.size + fresh.size > limit) {
    throw paymentRequired(
      'plan-limit-reached',
      `Plan limit reached: at most ${limit} stored identifiers (${known.size} stored)`,
    );
  }
}

/**
 * Counts the identifier against the project's plan limit. A plan without a limit keeps no list
 * (nothing to count against), so a million identifiers cost nothing here.
 */
export function storeIdentifier(store: TaxStore, principal: Principal, body: Identifier): void {
  if (principal.plan.identifierLimit === null) return;
  let set = store.identifiers.get(principal.ownerId);
  if (!set) {
    set = new Set();
    store.identifiers.set(principal.ownerId, set);
  }
  set.add(identifierKey(body));
}
