import type { ValidationRequest } from '../../tax/request-schemas.js';
import type { ValidationResult } from '../../tax/response-schemas.js';
import type { Principal } from '../fixtures.js';
import type { WebhookSender } from './webhook-sender.js';

/**
 * The events of a completed check: `completed` always, `invalid` for INVALID, and
 * `manual-review-required` when the registry gave no answer and the caller wants a review.
 */
export function sendResultEvents(
  webhooks: WebhookSender,
  principal: Principal,
  body: ValidationRequest,
  result: ValidationResult,
): void {
  const base = {
    occurredAt: result.checkedAt,
    taxValidatorId: `tv_${principal.ownerId}`,
    validationResultId: result.validationResultId,
    outcome: result.outcome,
    provider: result.provider ?? null,
    providerStatus: result.providerStatus,
  };
  webhooks.send({ eventType: 'taxvalidation.validation.completed', ...base });
  if (result.outcome === 'INVALID') webhooks.send({ eventType: 'taxvalidation.validation.invalid', ...base });
  const reviewWanted = body.attachSchedule?.manualReviewOnAutomaticFailure ?? principal.manualReviewOnFailure;
  if ((result.outcome === 'SOURCE_UNAVAILABLE' || result.outcome === 'UNKNOWN') && reviewWanted) {
    webhooks.send({
      eventType: 'taxvalidation.validation.manual-review-required',
      occurredAt: result.checkedAt,
      taxValidatorId: `tv_${principal.ownerId}`,
      validationRequestId: result.validationRequestId,
      status: 'MANUAL_REVIEW',
    });
  }
}
