import type { PrecheckResult } from '../../tax/precheck/index.js';
import type { PendingValidation, ValidationResult } from '../../tax/response-schemas.js';
import { fieldsView } from '../output.js';
import type { TableView } from '../output-format.js';

/** Table of a validation result: outcome, provider, providerStatus, match, company name. */
export function resultView(result: ValidationResult, replay = false): TableView {
  return fieldsView([
    ['outcome', result.outcome],
    ['status', result.status],
    ['provider', result.provider ?? '-'],
    ['providerStatus', result.providerStatus],
    ['match.companyName', result.match?.companyName],
    ['match.address', result.match?.address],
    ['companyName', result.responseData?.companyName ?? undefined],
    ['verificationMethod', result.verificationMethod],
    ['validationResultId', result.validationResultId],
    ['validationRequestId', result.validationRequestId],
    ['correlationId', result.correlationId ?? undefined],
    ['checkedAt', result.checkedAt],
    ['scheduleId', result.schedule?.scheduleId],
    ['nextRunAt', result.schedule?.nextRunAt],
    ['replay', replay ? 'yes (idempotency key already processed)' : undefined],
  ]);
}

export function pendingView(pending: PendingValidation, replay = false): TableView {
  return fieldsView([
    ['status', pending.status],
    ['validationRequestId', pending.validationRequestId],
    ['correlationId', pending.correlationId ?? undefined],
    ['note', 'accepted for asynchronous processing; the result arrives by webhook'],
    ['replay', replay ? 'yes' : undefined],
  ]);
}

export function precheckView(countryCode: string, result: PrecheckResult): TableView {
  return fieldsView([
    ['countryCode', countryCode],
    ['valid', result.valid],
    ['code', result.code],
    ['normalized', result.normalized],
    ['canonical', result.canonical ?? '-'],
  ]);
}
