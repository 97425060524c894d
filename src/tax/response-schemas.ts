import * as z from 'zod/mini';
import { looseObject, meta, openEnum, timestamp, wireSchema } from '../core/schema.js';
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
export const MatchResult = wireSchema(() =>
  meta(
    looseObject({
      companyName: meta(z.optional(openEnum(MATCH_VALUES)), { description: `Company name: ${MATCH}` }),
      address: meta(z.optional(openEnum(MATCH_VALUES)), { description: `Address: ${MATCH}` }),
    }),
    { description: 'Per-field result of matching the sent company name and address against the registry' },
  ),
);

/** Registry data. */
export const ResponseData = wireSchema(() =>
  meta(
    looseObject({
      companyName: meta(z.optional(z.nullable(z.string())), {
        description: 'Company name the registry holds',
      }),
      sourceReference: meta(z.optional(z.nullable(z.string())), {
        description: "The registry's reference of this answer (e.g. a consultation number)",
      }),
    }),
    { description: 'Data the registry returned' },
  ),
);

const PROVIDER = 'The registry that answered; null when none could (e.g. NOT_SUPPORTED)';
const VALIDATION_REQUEST_ID = 'Id of the validation request';
const CORRELATION_ID = "Echo of the request's correlationId; null when none was sent";

/** A validation result (201 of `POST /validations`, `GET /validation-results/{id}`). Lenient. */
export const ValidationResultSchema = wireSchema(() =>
  looseObject({
    validationRequestId: meta(z.string(), { description: VALIDATION_REQUEST_ID }),
    validationResultId: meta(z.string(), {
      description: 'Id of the result; fetch it again with GET /validation-results/{validationResultId}',
    }),
    taxIdentifierId: meta(z.optional(z.string()), {
      description: 'Id of the stored identifier (counts toward the plan limit of stored identifiers)',
    }),
    status: meta(openEnum(VALIDATION_STATUSES), {
      description: 'PENDING while the check runs, COMPLETED once it has an outcome',
    }),
    outcome: meta(openEnum(OUTCOMES), {
      description:
        'VALID, INVALID, UNKNOWN, SOURCE_UNAVAILABLE (the registry did not answer) or NOT_SUPPORTED (no registry for the country); UNKNOWN and SOURCE_UNAVAILABLE never mean invalid',
    }),
    provider: meta(z.optional(z.nullable(openEnum(PROVIDERS))), { description: PROVIDER }),
    providerStatus: meta(z.optional(openEnum(PROVIDER_STATUSES)), {
      description: 'Status of the registry call: SUCCESS or PROVIDER_ERROR',
    }),
    verificationMethod: meta(z.optional(openEnum(VERIFICATION_METHODS)), {
      description: 'AUTOMATIC, or MANUAL when the outcome came from manual review',
    }),
    match: z.optional(MatchResult()),
    responseData: z.optional(ResponseData()),
    checkedAt: z.optional(timestamp('When the registry was asked, ISO 8601 UTC')),
    correlationId: meta(z.optional(z.nullable(z.string())), { description: CORRELATION_ID }),
    input: meta(z.optional(z.record(z.string(), z.unknown())), {
      description: 'Echo of the validation request as it was processed',
    }),
    customerMetadata: meta(z.optional(z.record(z.string(), z.string())), {
      description: 'The customerMetadata of the request, stored with the result',
    }),
    createdAt: z.optional(timestamp('When the request was accepted, ISO 8601 UTC')),
    completedAt: z.optional(timestamp('When the check completed, ISO 8601 UTC')),
    schedule: meta(
      z.optional(
        looseObject({
          scheduleId: meta(z.string(), { description: 'Id of the schedule attachSchedule created' }),
          nextRunAt: timestamp('When the schedule next runs, ISO 8601 UTC'),
        }),
      ),
      { description: 'The schedule attachSchedule created; absent without attachSchedule' },
    ),
  }),
);
/** A validation result (201 of `POST /validations`, `GET /validation-results/{id}`). Lenient. */
export type ValidationResult = z.infer<ReturnType<typeof ValidationResultSchema>>;

/** 202 of `POST /validations`: accepted, result to follow. */
export const PendingValidationSchema = wireSchema(() =>
  looseObject({
    validationRequestId: meta(z.string(), { description: VALIDATION_REQUEST_ID }),
    status: meta(z.literal('PENDING'), { description: 'Always PENDING: the result follows as a webhook' }),
    correlationId: meta(z.optional(z.nullable(z.string())), { description: CORRELATION_ID }),
    idempotencyKey: meta(z.optional(z.string()), {
      description: 'The idempotencyKey the request was processed under',
    }),
  }),
);
/** 202 of `POST /validations`: accepted, result to follow. */
export type PendingValidation = z.infer<ReturnType<typeof PendingValidationSchema>>;

/** One entry of the batch 202, in input order. */
export const BatchItemAcceptedSchema = wireSchema(() =>
  meta(
    looseObject({
      index: meta(z.number().check(z.int()).check(z.gte(0)), {
        description: 'Zero-based position of the item in `items`',
      }),
      validationRequestId: meta(z.string(), { description: VALIDATION_REQUEST_ID }),
      status: meta(openEnum(VALIDATION_STATUSES), {
        description:
          'PENDING for every entry, a replayed one included: results arrive as webhooks (taxvalidation.validation.completed)',
      }),
      idempotencyKey: meta(z.optional(z.string()), {
        description: 'The idempotencyKey the item was processed under',
      }),
      /** Present when the item is an idempotent replay of a completed validation. */
      validationResultId: meta(z.optional(z.string()), {
        description:
          'Only on a replayed item whose validation already completed: the id of its result (GET /validation-results/{validationResultId})',
      }),
      replay: meta(z.optional(z.boolean()), {
        description:
          'true when the item is an idempotent replay (same idempotencyKey and body) and was not processed again; absent otherwise',
      }),
    }),
    { description: 'One entry per batch item' },
  ),
);
/** One entry of the batch 202, in input order. */
export type BatchItemAccepted = z.infer<ReturnType<typeof BatchItemAcceptedSchema>>;

/** 202 of `POST /validations/batch`. */
export const BatchAcceptedSchema = wireSchema(() =>
  looseObject({
    items: meta(z.array(BatchItemAcceptedSchema()), { description: 'One entry per item, in input order' }),
  }),
);
/** 202 of `POST /validations/batch`. */
export type BatchAccepted = z.infer<ReturnType<typeof BatchAcceptedSchema>>;

/** 201 of `POST /schedules`. */
export const ScheduleCreatedSchema = wireSchema(() =>
  looseObject({
    scheduleId: meta(z.string(), {
      description: 'Id of the schedule; DELETE /schedules/{scheduleId} removes it',
    }),
    nextRunAt: timestamp(
      'First run: creation time plus 1, 3 or 12 calendar months (MONTHLY, QUARTERLY, YEARLY), UTC, clamped to the month end',
    ),
  }),
);
/** 201 of `POST /schedules`. */
export type ScheduleCreated = z.infer<ReturnType<typeof ScheduleCreatedSchema>>;
