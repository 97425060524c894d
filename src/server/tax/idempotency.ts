import type { ValidationRequest } from '../../tax/request-schemas.js';
import type { Principal } from '../fixtures.js';
import { HttpProblem } from '../problem.js';
import type { AcceptedItem } from './routing.js';
import { stableJson } from './stable-json.js';
import type { TaxStore, ValidationRecord } from './store.js';

/**
 * The stored request for the body's idempotency key: a replay, a conflict (409: the key came with
 * another body, compared with the stored body, so no hash is kept per request), or none.
 */
export function findReplay(
  store: TaxStore,
  principal: Principal,
  body: ValidationRequest,
): ValidationRecord | undefined {
  if (!body.idempotencyKey) return undefined;
  const stored = store.byIdempotencyKey(principal.ownerId, body.idempotencyKey);
  if (!stored) return undefined;
  if (stableJson(stored.body) !== stableJson(body)) {
    throw new HttpProblem(
      409,
      `idempotencyKey '${body.idempotencyKey}' was already used with a different request`,
    );
  }
  store.state.stats.idempotentReplays += 1;
  return stored;
}

/** Registers a new request under its idempotency key; `validationsProcessed` counts it once. */
export function acceptRequest(store: TaxStore, principal: Principal, item: AcceptedItem): ValidationRecord {
  const stored = store.add(principal.ownerId, item.body, item.provider);
  store.state.stats.validationsProcessed += 1;
  return stored;
}
