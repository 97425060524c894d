import { createHash, randomUUID } from 'node:crypto';
import type { ValidationRequest } from '../../tax/request-schemas.js';
import type { Principal } from '../fixtures.js';
import { HttpProblem } from '../problem.js';
import type { AcceptedItem } from './routing.js';
import { stableJson } from './stable-json.js';
import type { StoredRequest, TaxStore } from './store.js';

function hashBody(body: ValidationRequest): string {
  return createHash('sha256').update(stableJson(body)).digest('hex');
}

/** The stored request for the body's idempotency key: a replay, a conflict (409), or none. */
export function findReplay(
  store: TaxStore,
  principal: Principal,
  body: ValidationRequest,
): StoredRequest | undefined {
  if (!body.idempotencyKey) return undefined;
  const stored = store.idempotency.get(`${principal.ownerId}:${body.idempotencyKey}`);
  if (!stored) return undefined;
  if (stored.bodyHash !== hashBody(body)) {
    throw new HttpProblem(
      409,
      `idempotencyKey '${body.idempotencyKey}' was already used with a different request`,
    );
  }
  store.state.stats.idempotentReplays += 1;
  return stored;
}

/** Registers a new request under its idempotency key; `validationsProcessed` counts it once. */
export function acceptRequest(store: TaxStore, principal: Principal, item: AcceptedItem): StoredRequest {
  const stored: StoredRequest = {
    projectId: principal.ownerId,
    validationRequestId: `valreq_${randomUUID()}`,
    bodyHash: hashBody(item.body),
    status: 'PENDING',
    validationResultId: undefined,
  };
  store.requests.set(stored.validationRequestId, stored);
  if (item.body.idempotencyKey)
    store.idempotency.set(`${principal.ownerId}:${item.body.idempotencyKey}`, stored);
  store.state.stats.validationsProcessed += 1;
  return stored;
}
