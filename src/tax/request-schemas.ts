import * as z from 'zod/mini';
import { meta, strictObject, wireSchema } from '../core/schema.js';
import { FREQUENCIES, LIMITS, PROVIDERS } from './enums.js';
import { normalizeTaxId } from './precheck/index.js';

const CountryCode = wireSchema(() =>
  meta(z.string().check(z.regex(/^[A-Z]{2}$/, 'must be a 2-letter ISO country code in upper case')), {
    description: 'ISO 3166-1 alpha-2 country code in upper case, e.g. `DE`',
  }),
);

/**
 * A VAT or business ID: at most 64 characters as sent, and 1 to 20 once spaces, dots, dashes and
 * underscores are stripped. The raw cap is checked first and stops the other checks, so an
 * over-long value gets one message and is never normalised.
 */
export const RawValue = wireSchema(() =>
  z
    .string()
    .check(
      z.maxLength(LIMITS.rawValueRawLength, {
        message: `must be at most ${LIMITS.rawValueRawLength} characters as sent (before spaces, dots, dashes and underscores are removed)`,
        abort: true,
      }),
    )
    .check(z.refine((v) => normalizeTaxId(v).length > 0, { message: 'must not be empty' }))
    .check(
      z.refine((v) => normalizeTaxId(v).length <= LIMITS.rawValueLength, {
        message: `must be at most ${LIMITS.rawValueLength} characters after removing spaces, dots, dashes and underscores`,
      }),
    ),
);

/** Address matched against the registry. */
export const Address = wireSchema(() =>
  meta(
    strictObject({
      street: meta(z.optional(z.string().check(z.maxLength(256))), {
        description: 'Street and house number; at most 256 characters',
      }),
      postalCode: meta(z.optional(z.string().check(z.maxLength(32))), {
        description: 'Postal code; at most 32 characters',
      }),
      city: meta(z.optional(z.string().check(z.maxLength(128))), {
        description: 'City; at most 128 characters',
      }),
      region: meta(z.optional(z.string().check(z.maxLength(128))), {
        description: 'Region or state; at most 128 characters',
      }),
      countryCode: meta(z.optional(CountryCode()), {
        description: 'Country of the address, ISO 3166-1 alpha-2',
      }),
    }),
    { description: 'Address matched against the registry; every member optional' },
  ),
);

/** Up to 20 pairs; key 1-64 of a-z 0-9 _ -; value at most 512 characters. */
export const CustomerMetadata = wireSchema(() =>
  meta(
    z
      .record(
        z.string().check(z.regex(/^[a-z0-9_-]{1,64}$/)),
        z
          .string()
          .check(
            z.maxLength(
              LIMITS.metadataValueLength,
              `metadata value must be at most ${LIMITS.metadataValueLength} characters`,
            ),
          ),
        {
          error: (issue) =>
            issue.code === 'invalid_key'
              ? `metadata key '${String(issue.input)}' must be 1 to 64 characters from a-z, 0-9, _ and -`
              : undefined,
        },
      )
      .check(
        z.refine((m) => Object.keys(m).length <= LIMITS.metadataPairs, {
          message: `at most ${LIMITS.metadataPairs} metadata pairs`,
        }),
      ),
    {
      description: `Caller's own data stored with the result: at most ${LIMITS.metadataPairs} pairs; key 1 to ${LIMITS.metadataKeyLength} characters from a-z, 0-9, _ and -; value at most ${LIMITS.metadataValueLength} characters`,
      maxProperties: LIMITS.metadataPairs,
    },
  ),
);

export const Provider = wireSchema(() => z.enum(PROVIDERS));
export const Frequency = wireSchema(() => z.enum(FREQUENCIES));

const RAW_VALUE = `The VAT or business ID, at most ${LIMITS.rawValueRawLength} characters as sent. Spaces, dots, dashes and underscores are stripped; at most ${LIMITS.rawValueLength} characters remain`;
const PREFERRED_PROVIDER =
  'Pins the registry to ask; a registry that cannot serve the country is refused with 422';
const FREQUENCY = 'How often the identifier is checked again: every 1, 3 or 12 calendar months';
const SCHEDULE_MODE = 'Schedule mode; the values are not documented by the reference';
const MANUAL_REVIEW =
  'Whether a check that fails in automatic mode goes to the manual review queue; default true';
const IS_ENABLED = 'Whether the schedule runs; default true';
const COMPANY_NAME = `Company name matched against the registry; at most ${LIMITS.companyNameLength} characters`;
const REQUESTER =
  "The requester's own VAT ID; a German requester gets a qualified confirmation for non-German EU IDs";

/** The settings of a schedule, shared by `attachSchedule` and a schedule's own request (in this order). */
function scheduleSettings() {
  return {
    frequency: meta(Frequency(), { description: FREQUENCY }),
    mode: meta(z.optional(z.string().check(z.maxLength(64))), { description: SCHEDULE_MODE }),
    preferredProvider: meta(z.optional(Provider()), { description: PREFERRED_PROVIDER }),
    manualReviewOnAutomaticFailure: meta(z.optional(z.boolean()), {
      description: MANUAL_REVIEW,
      default: true,
    }),
    isEnabled: meta(z.optional(z.boolean()), { description: IS_ENABLED, default: true }),
  };
}

/** `attachSchedule`: also put the identifier on a recurring schedule. */
export const AttachSchedule = wireSchema(() =>
  meta(strictObject({ ...scheduleSettings() }), {
    description: 'Also put the identifier on a recurring schedule (needs scheduled validation in the plan)',
  }),
);

/** Input of `POST /validations` and of each batch item. Strict: unknown keys are rejected. */
export const ValidationRequestSchema = wireSchema(() =>
  strictObject({
    countryCode: meta(CountryCode(), {
      description: 'ISO 3166-1 alpha-2 country code; determines the ID scheme',
    }),
    rawValue: meta(RawValue(), { description: RAW_VALUE }),
    companyName: meta(z.optional(z.string().check(z.maxLength(LIMITS.companyNameLength))), {
      description: COMPANY_NAME,
    }),
    address: z.optional(Address()),
    requesterVatId: meta(z.optional(RawValue()), { description: REQUESTER }),
    customerMetadata: z.optional(CustomerMetadata()),
    preferredProvider: meta(z.optional(Provider()), { description: PREFERRED_PROVIDER }),
    idempotencyKey: meta(z.optional(z.string().check(z.minLength(1)).check(z.maxLength(255))), {
      description:
        'A retried request with the same key and body is not processed twice (200 with the first result); the same key with another body is 409. 1 to 255 characters',
    }),
    correlationId: meta(z.optional(z.string().check(z.maxLength(255))), {
      description: "Caller's tracing id, echoed back in the result; at most 255 characters",
    }),
    attachSchedule: z.optional(AttachSchedule()),
  }),
);
/** Input of `POST /validations` and of each batch item. Strict: unknown keys are rejected. */
export type ValidationRequest = z.infer<ReturnType<typeof ValidationRequestSchema>>;

/** Body of `POST /validations/batch`. */
export const BatchRequestSchema = wireSchema(() =>
  strictObject({
    items: meta(
      z.array(ValidationRequestSchema()).check(z.minLength(1)).check(z.maxLength(LIMITS.batchItems)),
      {
        description: `1 to ${LIMITS.batchItems} validation requests; one structurally invalid item refuses the whole batch (422)`,
      },
    ),
  }),
);
/** Body of `POST /validations/batch`. */
export type BatchRequest = z.infer<ReturnType<typeof BatchRequestSchema>>;

/** Body of `POST /schedules`. */
export const ScheduleRequestSchema = wireSchema(() =>
  strictObject({
    countryCode: meta(CountryCode(), {
      description: 'ISO 3166-1 alpha-2 country code; determines the ID scheme',
    }),
    rawValue: meta(RawValue(), { description: RAW_VALUE }),
    ...scheduleSettings(),
    companyName: meta(z.optional(z.string().check(z.maxLength(LIMITS.companyNameLength))), {
      description: COMPANY_NAME,
    }),
    address: z.optional(Address()),
    requesterVatId: meta(z.optional(RawValue()), { description: REQUESTER }),
  }),
);
/** Body of `POST /schedules`. */
export type ScheduleRequest = z.infer<ReturnType<typeof ScheduleRequestSchema>>;
