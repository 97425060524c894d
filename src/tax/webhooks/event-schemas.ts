import * as z from 'zod/mini';
import { looseObject, meta, openEnum, timestamp, wireSchema } from '../../core/schema.js';
import { OUTCOMES, PROVIDERS } from '../enums.js';

/** Payload of `taxvalidation.validation.completed` and `.invalid`. */
export const ValidationCompletedEventSchema = wireSchema(() =>
  looseObject({
    eventType: meta(z.enum(['taxvalidation.validation.completed', 'taxvalidation.validation.invalid']), {
      description: 'completed for every check; invalid in addition when the outcome is INVALID',
    }),
    occurredAt: timestamp('When the check completed, ISO 8601 UTC'),
    taxValidatorId: meta(z.string(), {
      description: 'Id of the tax validator (the project) that ran the check',
    }),
    validationResultId: meta(z.string(), {
      description: 'Id of the result; GET /validation-results/{validationResultId} gives it in full',
    }),
    outcome: meta(openEnum(OUTCOMES), {
      description: 'VALID, INVALID, UNKNOWN, SOURCE_UNAVAILABLE or NOT_SUPPORTED',
    }),
    provider: meta(z.nullable(openEnum(PROVIDERS)), {
      description: 'The registry that answered; null when none could',
    }),
    providerStatus: meta(z.string(), { description: 'Status of the registry call, e.g. SUCCESS' }),
  }),
);
/** Payload of `taxvalidation.validation.completed` and `.invalid`. */
export type ValidationCompletedEvent = z.infer<ReturnType<typeof ValidationCompletedEventSchema>>;

/** Payload of `taxvalidation.validation.manual-review-required`. */
export const ManualReviewRequiredEventSchema = wireSchema(() =>
  looseObject({
    eventType: meta(z.literal('taxvalidation.validation.manual-review-required'), {
      description: 'A check entered the manual review queue',
    }),
    occurredAt: timestamp('When the check entered the queue, ISO 8601 UTC'),
    taxValidatorId: meta(z.optional(z.string()), { description: 'Id of the tax validator (the project)' }),
    validationRequestId: meta(z.string(), { description: 'Id of the validation request now in review' }),
    status: meta(z.string(), { description: 'Status of the validation request, e.g. PENDING' }),
  }),
);
/** Payload of `taxvalidation.validation.manual-review-required`. */
export type ManualReviewRequiredEvent = z.infer<ReturnType<typeof ManualReviewRequiredEventSchema>>;
