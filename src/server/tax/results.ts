import type { ValidationResult } from '../../tax/response-schemas.js';
import type { Principal } from '../fixtures.js';
import { HttpProblem } from '../problem.js';
import type { StoredRequest, TaxStore } from './store.js';

/** The result without server bookkeeping. */
export function publicResult(result: ValidationResult & { projectId?: string }): ValidationResult {
  const { projectId: _project, ...rest } = result;
  return rest;
}

/** The result of a stored request (for replays), if completed. */
export function resultOf(store: TaxStore, stored: StoredRequest): ValidationResult | undefined {
  const result = stored.validationResultId ? store.results.get(stored.validationResultId) : undefined;
  return result && publicResult(result);
}

/** A stored result of the caller's project; 404 otherwise. */
export function getResult(store: TaxStore, principal: Principal, id: string): ValidationResult {
  const result = store.results.get(id);
  if (!result || result.projectId !== principal.ownerId)
    throw new HttpProblem(404, `Validation result ${id} not found`);
  return publicResult(result);
}
