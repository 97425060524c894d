import { z } from 'zod';
import { openEnum } from '../core/schema.js';
import { OUTCOMES, PROVIDERS } from './enums.js';

/** Payload of `taxvalidation.validation.completed` and `.invalid`. */
export const ValidationCompletedEvent = z.looseObject({
  eventType: z.enum(['taxvalidation.validation.completed', 'taxvalidation.validation.invalid']),
  occurredAt: z.string(),
  taxValidatorId: z.string(),
  validationResultId: z.string(),
  outcome: openEnum(OUTCOMES),
  provider: openEnum(PROVIDERS).nullable(),
  providerStatus: z.string(),
});
export type ValidationCompletedEvent = z.infer<typeof ValidationCompletedEvent>;

/** Payload of `taxvalidation.validation.manual-review-required`. */
export const ManualReviewRequiredEvent = z.looseObject({
  eventType: z.literal('taxvalidation.validation.manual-review-required'),
  occurredAt: z.string(),
  taxValidatorId: z.string().optional(),
  validationRequestId: z.string(),
  status: z.string(),
});
export type ManualReviewRequiredEvent = z.infer<typeof ManualReviewRequiredEvent>;

/** Event types this version knows. */
export const WEBHOOK_EVENT_TYPES = [
  'taxvalidation.validation.completed',
  'taxvalidation.validation.invalid',
  'taxvalidation.validation.manual-review-required',
] as const;
