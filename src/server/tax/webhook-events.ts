import type { Principal } from '../fixtures.js';
import type { TaxStore, ValidationRecord } from './store.js';
import type { WebhookSender } from './webhook-sender.js';

/** Sends the events of one completed validation, given its record. */
export type ResultEvents = (principal: Principal, record: ValidationRecord) => void;

/**
 * The events of a completed check: `completed` always, `invalid` for INVALID, and
 * `manual-review-required` when the registry gave no answer and the caller wants a review. Each is
 * queued as the record's position and built from the stored record when it is sent.
 */
export function resultEvents(webhooks: WebhookSender, store: TaxStore): ResultEvents {
  const recordAt = (seq: number) => {
    const record = store.records[seq];
    return record?.outcome === undefined ? undefined : record;
  };
  const verdict = (eventType: string) => (seq: number) => {
    const record = recordAt(seq);
    if (!record) return undefined;
    return {
      eventType,
      occurredAt: new Date(record.completedAt).toISOString(),
      taxValidatorId: `tv_${record.projectId}`,
      validationResultId: store.resultId(record),
      outcome: record.outcome,
      provider: record.provider,
      providerStatus: record.providerError ? 'PROVIDER_ERROR' : 'SUCCESS',
    };
  };
  const completed = webhooks.defineEvent(
    'taxvalidation.validation.completed',
    verdict('taxvalidation.validation.completed'),
  );
  const invalid = webhooks.defineEvent(
    'taxvalidation.validation.invalid',
    verdict('taxvalidation.validation.invalid'),
  );
  const review = webhooks.defineEvent('taxvalidation.validation.manual-review-required', (seq) => {
    const record = recordAt(seq);
    if (!record) return undefined;
    return {
      eventType: 'taxvalidation.validation.manual-review-required',
      occurredAt: new Date(record.completedAt).toISOString(),
      taxValidatorId: `tv_${record.projectId}`,
      validationRequestId: store.requestId(record),
      status: 'MANUAL_REVIEW',
    };
  });
  return (principal, record) => {
    completed(record.seq);
    if (record.outcome === 'INVALID') invalid(record.seq);
    const reviewWanted =
      record.body.attachSchedule?.manualReviewOnAutomaticFailure ?? principal.manualReviewOnFailure;
    if ((record.outcome === 'SOURCE_UNAVAILABLE' || record.outcome === 'UNKNOWN') && reviewWanted)
      review(record.seq);
  };
}
