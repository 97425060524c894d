import * as z from 'zod';
import { lazySchema } from '../core/lazy-schema.js';
import { openEnum, timestamp } from '../core/schema.js';
import {
  MATCH_VALUES,
  OUTCOMES,
  PROVIDER_STATUSES,
  PROVIDERS,
  VALIDATION_STATUSES,
  VERIFICATION_METHODS,
} from './enums.js';

const MATCH =
  'MATCH, NO_MATCH, PARTIAL_MATCH, or NOT_REQUESTED when the field was not sent; further values may be added';

/** Per-field match result. */
export const MatchResult = lazySchema(() =>
  z
    .looseObject({
      companyName: openEnum(MATCH_VALUES)
        .optional()
        .meta({ description: `Company name: ${MATCH}` }),
      address: openEnum(MATCH_VALUES)
        .optional()
        .meta({ description: `Address: ${MATCH}` }),
    })
    .meta({
      description: 'Per-field result of matching the sent company name and address against the registry',
    }),
);

/** Registry data. */
export const ResponseData = lazySchema(() =>
  z
    .looseObject({
      companyName: z.string().nullable().optional().meta({ description: 'Company name the registry holds' }),
      sourceReference: z
        .string()
        .nullable()
        .optional()
        .meta({ description: "The registry's reference of this answer (e.g. a consultation number)" }),
    })
    .meta({ description: 'Data the registry returned' }),
);

const PROVIDER = 'The registry that answered; null when none could (e.g. NOT_SUPPORTED)';
const VALIDATION_REQUEST_ID = 'Id of the validation request';
const CORRELATION_ID = "Echo of the request's correlationId; null when none was sent";

/** A validation result (201 of `POST /validations`, `GET /validation-results/{id}`). Lenient. */
export const ValidationResult = lazySchema(() =>
  z.looseObject({
    validationRequestId: z.string().meta({ description: VALIDATION_REQUEST_ID }),
    validationResultId: z.string().meta({
      description: 'Id of the result; fetch it again with GET /validation-results/{validationResultId}',
    }),
    taxIdentifierId: z.string().optional().meta({
      description: 'Id of the stored identifier (counts toward the plan limit of stored identifiers)',
    }),
    status: openEnum(VALIDATION_STATUSES).meta({
      description: 'PENDING while the check runs, COMPLETED once it has an outcome',
    }),
    outcome: openEnum(OUTCOMES).meta({
      description:
        'VALID, INVALID, UNKNOWN, SOURCE_UNAVAILABLE (the registry did not answer) or NOT_SUPPORTED (no registry for the country); UNKNOWN and SOURCE_UNAVAILABLE never mean invalid',
    }),
    provider: openEnum(PROVIDERS).nullable().optional().meta({ description: PROVIDER }),
    providerStatus: openEnum(PROVIDER_STATUSES)
      .optional()
      .meta({ description: 'Status of the registry call: SUCCESS or PROVIDER_ERROR' }),
    verificationMethod: openEnum(VERIFICATION_METHODS)
      .optional()
      .meta({ description: 'AUTOMATIC, or MANUAL when the outcome came from manual review' }),
    match: MatchResult().optional(),
    responseData: ResponseData().optional(),
    checkedAt: timestamp('When the registry was asked, ISO 8601 UTC').optional(),
    correlationId: z.string().nullable().optional().meta({ description: CORRELATION_ID }),
    input: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Echo of the validation request as it was processed' }),
    customerMetadata: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'The customerMetadata of the request, stored with the result' }),
    createdAt: timestamp('When the request was accepted, ISO 8601 UTC').optional(),
    completedAt: timestamp('When the check completed, ISO 8601 UTC').optional(),
    schedule: z
      .looseObject({
        scheduleId: z.string().meta({ description: 'Id of the schedule attachSchedule created' }),
        nextRunAt: timestamp('When the schedule next runs, ISO 8601 UTC'),
      })
      .optional()
      .meta({ description: 'The schedule attachSchedule created; absent without attachSchedule' }),
  }),
);
export type ValidationResult = z.infer<ReturnType<typeof ValidationResult>>;

/** 202 of `POST /validations`: accepted, result to follow. */
export const PendingValidation = lazySchema(() =>
  z.looseObject({
    validationRequestId: z.string().meta({ description: VALIDATION_REQUEST_ID }),
    status: z.literal('PENDING').meta({ description: 'Always PENDING: the result follows as a webhook' }),
    correlationId: z.string().nullable().optional().meta({ description: CORRELATION_ID }),
    idempotencyKey: z
      .string()
      .optional()
      .meta({ description: 'The idempotencyKey the request was processed under' }),
  }),
);
export type PendingValidation = z.infer<ReturnType<typeof PendingValidation>>;

/** One entry of the batch 202, in input order. */
export const BatchItemAccepted = lazySchema(() =>
  z
    .looseObject({
      index: z.number().int().min(0).meta({ description: 'Zero-based position of the item in `items`' }),
      validationRequestId: z.string().meta({ description: VALIDATION_REQUEST_ID }),
      status: openEnum(VALIDATION_STATUSES).meta({
        description:
          'PENDING for every entry, a replayed one included: results arrive as webhooks (taxvalidation.validation.completed)',
      }),
      idempotencyKey: z
        .string()
        .optional()
        .meta({ description: 'The idempotencyKey the item was processed under' }),
      /** Present when the item is an idempotent replay of a completed validation. */
      validationResultId: z.string().optional().meta({
        description:
          'Only on a replayed item whose validation already completed: the id of its result (GET /validation-results/{validationResultId})',
      }),
      replay: z.boolean().optional().meta({
        description:
          'true when the item is an idempotent replay (same idempotencyKey and body) and was not processed again; absent otherwise',
      }),
    })
    .meta({ description: 'One entry per batch item' }),
);
export type BatchItemAccepted = z.infer<ReturnType<typeof BatchItemAccepted>>;

/** 202 of `POST /validations/batch`. */
export const BatchAccepted = lazySchema(() =>
  z.looseObject({
    items: z.array(BatchItemAccepted()).meta({ description: 'One entry per item, in input order' }),
  }),
);
export type BatchAccepted = z.infer<ReturnType<typeof BatchAccepted>>;

/** 201 of `POST /schedules`. */
export const ScheduleCreated = lazySchema(() =>
  z.looseObject({
    scheduleId: z
      .string()
      .meta({ description: 'Id of the schedule; DELETE /schedules/{scheduleId} removes it' }),
    nextRunAt: timestamp(
      'First run: creation time plus 1, 3 or 12 calendar months (MONTHLY, QUARTERLY, YEARLY), UTC, clamped to the month end',
    ),
  }),
);
export type ScheduleCreated = z.infer<ReturnType<typeof ScheduleCreated>>;
