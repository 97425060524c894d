import { precheck } from '../../tax/precheck/index.js';
import type { ValidationResult } from '../../tax/response-schemas.js';
import type { Principal } from '../fixtures.js';
import { HttpProblem } from '../problem.js';
import { taxIdentifierId } from './limits.js';
import { matchAddress, matchText } from './matching.js';
import { registryRecord } from './registry-fixture.js';
import type { TaxStore, ValidationRecord } from './store.js';

/**
 * The full result of a completed record, rebuilt from the request body and the verdict (the
 * registry fixture and the matching are deterministic, so nothing else needs keeping).
 */
export function buildResult(store: TaxStore, record: ValidationRecord): ValidationResult {
  const { body, outcome, provider } = record;
  if (outcome === undefined) throw new Error('buildResult: the record is not completed');
  const check = precheck(body.countryCode, body.rawValue);
  const registry =
    outcome === 'VALID' ? registryRecord(body.countryCode, check.canonical ?? check.normalized) : undefined;
  const match: Record<string, string> = {};
  if (outcome === 'VALID' || outcome === 'INVALID') {
    // Not asked for, compared with the registry's, or nothing in the registry to compare with.
    const compared = <T>(
      given: T | undefined,
      compare: (given: T, found: NonNullable<typeof registry>) => string,
    ) => (given === undefined ? 'NOT_REQUESTED' : registry ? compare(given, registry) : 'NO_MATCH');
    match.companyName = compared(body.companyName, (name, found) => matchText(name, found.companyName));
    match.address = compared(body.address, (address, found) => matchAddress(address, found.address));
  }
  const at = new Date(record.completedAt).toISOString();
  const result: ValidationResult = {
    validationRequestId: store.requestId(record),
    validationResultId: store.resultId(record) as string,
    taxIdentifierId: taxIdentifierId(record.projectId, `${body.countryCode}:${check.normalized}`),
    status: 'COMPLETED',
    outcome,
    provider,
    providerStatus: record.providerError ? 'PROVIDER_ERROR' : 'SUCCESS',
    verificationMethod: 'AUTOMATIC',
    match,
    responseData: registry
      ? { companyName: registry.companyName, sourceReference: registry.sourceReference }
      : {},
    checkedAt: at,
    correlationId: body.correlationId ?? null,
    input: {
      countryCode: body.countryCode,
      rawValue: body.rawValue,
      normalizedValue: check.normalized,
      ...(body.companyName !== undefined && { companyName: body.companyName }),
      ...(body.address !== undefined && { address: body.address }),
      ...(body.requesterVatId !== undefined && { requesterVatId: body.requesterVatId }),
      ...(body.preferredProvider !== undefined && { preferredProvider: body.preferredProvider }),
    },
    customerMetadata: body.customerMetadata ?? {},
    createdAt: at,
    completedAt: at,
  };
  if (record.schedule) result.schedule = record.schedule;
  return result;
}

/** The result of a stored request (for replays), if completed. */
export function resultOf(store: TaxStore, record: ValidationRecord): ValidationResult | undefined {
  return record.completed ? buildResult(store, record) : undefined;
}

/** A stored result of the caller's project; 404 otherwise. */
export function getResult(store: TaxStore, principal: Principal, id: string): ValidationResult {
  const record = store.byResultId(id);
  if (!record || record.projectId !== principal.ownerId)
    throw new HttpProblem(404, `Validation result ${id} not found`);
  return buildResult(store, record);
}
