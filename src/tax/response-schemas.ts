import { z } from 'zod';
import { openEnum } from '../core/schema.js';
import {
  MATCH_VALUES,
  OUTCOMES,
  PROVIDER_STATUSES,
  PROVIDERS,
  VALIDATION_STATUSES,
  VERIFICATION_METHODS,
} from './enums.js';

/** Per-field match result. */
export const MatchResult = z.looseObject({
  companyName: openEnum(MATCH_VALUES).optional(),
  address: openEnum(MATCH_VALUES).optional(),
});

/** Registry data. */
export const ResponseData = z.looseObject({
  companyName: z.string().nullable().optional(),
  sourceReference: z.string().nullable().optional(),
});

/** A validation result (201 of `POST /validations`, `GET /validation-results/{id}`). Lenient. */
export const ValidationResult = z.looseObject({
  validationRequestId: z.string(),
  validationResultId: z.string(),
  taxIdentifierId: z.string().optional(),
  status: openEnum(VALIDATION_STATUSES),
  outcome: openEnum(OUTCOMES),
  provider: openEnum(PROVIDERS).nullable().optional(),
  providerStatus: openEnum(PROVIDER_STATUSES).optional(),
  verificationMethod: openEnum(VERIFICATION_METHODS).optional(),
  match: MatchResult.optional(),
  responseData: ResponseData.optional(),
  checkedAt: z.string().optional(),
  correlationId: z.string().nullable().optional(),
  input: z.record(z.string(), z.unknown()).optional(),
  customerMetadata: z.record(z.string(), z.string()).optional(),
  createdAt: z.string().optional(),
  completedAt: z.string().optional(),
  schedule: z.looseObject({ scheduleId: z.string(), nextRunAt: z.string() }).optional(),
});
export type ValidationResult = z.infer<typeof ValidationResult>;

/** 202 of `POST /validations`: accepted, result to follow. */
export const PendingValidation = z.looseObject({
  validationRequestId: z.string(),
  status: z.literal('PENDING'),
  correlationId: z.string().nullable().optional(),
  idempotencyKey: z.string().optional(),
});
export type PendingValidation = z.infer<typeof PendingValidation>;

/** One entry of the batch 202, in input order. */
export const BatchItemAccepted = z.looseObject({
  index: z.number().int(),
  validationRequestId: z.string(),
  status: openEnum(VALIDATION_STATUSES),
  idempotencyKey: z.string().optional(),
  /** Present when the item is an idempotent replay of a completed validation. */
  validationResultId: z.string().optional(),
  replay: z.boolean().optional(),
});
export type BatchItemAccepted = z.infer<typeof BatchItemAccepted>;

/** 202 of `POST /validations/batch`. */
export const BatchAccepted = z.looseObject({ items: z.array(BatchItemAccepted) });
export type BatchAccepted = z.infer<typeof BatchAccepted>;

/** 201 of `POST /schedules`. */
export const ScheduleCreated = z.looseObject({
  scheduleId: z.string(),
  nextRunAt: z.string(),
});
export type ScheduleCreated = z.infer<typeof ScheduleCreated>;
