import * as z from 'zod';
import { lazySchema } from '../core/lazy-schema.js';
import { openEnum, timestamp } from '../core/schema.js';
import { OUTCOMES, PROVIDERS } from './enums.js';

/** Payload of `taxvalidation.validation.completed` and `.invalid`. */
export const ValidationCompletedEvent = lazySchema(() =>
  z.looseObject({
    eventType: z
      .enum(['taxvalidation.validation.completed', 'taxvalidation.validation.invalid'])
      .meta({ description: 'completed for every check; invalid in addition when the outcome is INVALID' }),
    occurredAt: timestamp('When the check completed, ISO 8601 UTC'),
    taxValidatorId: z
      .string()
      .meta({ description: 'Id of the tax validator (the project) that ran the check' }),
    validationResultId: z.string().meta({
      description: 'Id of the result; GET /validation-results/{validationResultId} gives it in full',
    }),
    outcome: openEnum(OUTCOMES).meta({
      description: 'VALID, INVALID, UNKNOWN, SOURCE_UNAVAILABLE or NOT_SUPPORTED',
    }),
    provider: openEnum(PROVIDERS)
      .nullable()
      .meta({ description: 'The registry that answered; null when none could' }),
    providerStatus: z.string().meta({ description: 'Status of the registry call, e.g. SUCCESS' }),
  }),
);
export type ValidationCompletedEvent = z.infer<ReturnType<typeof ValidationCompletedEvent>>;

/** Payload of `taxvalidation.validation.manual-review-required`. */
export const ManualReviewRequiredEvent = lazySchema(() =>
  z.looseObject({
    eventType: z
      .literal('taxvalidation.validation.manual-review-required')
      .meta({ description: 'A check entered the manual review queue' }),
    occurredAt: timestamp('When the check entered the queue, ISO 8601 UTC'),
    taxValidatorId: z.string().optional().meta({ description: 'Id of the tax validator (the project)' }),
    validationRequestId: z.string().meta({ description: 'Id of the validation request now in review' }),
    status: z.string().meta({ description: 'Status of the validation request, e.g. PENDING' }),
  }),
);
export type ManualReviewRequiredEvent = z.infer<ReturnType<typeof ManualReviewRequiredEvent>>;

/** Event types this version knows. */
export const WEBHOOK_EVENT_TYPES = [
  'taxvalidation.validation.completed',
  'taxvalidation.validation.invalid',
  'taxvalidation.validation.manual-review-required',
] as const;
