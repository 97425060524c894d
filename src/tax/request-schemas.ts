import * as z from 'zod';
import { lazySchema } from '../core/lazy-schema.js';
import { FREQUENCIES, LIMITS, PROVIDERS } from './enums.js';
import { normalizeTaxId } from './precheck/index.js';

const CountryCode = lazySchema(() =>
  z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be a 2-letter ISO country code in upper case')
    .meta({ description: 'ISO 3166-1 alpha-2 country code in upper case, e.g. `DE`' }),
);

/** A VAT or business ID: 1 to 20 characters once spaces, dots, dashes and underscores are stripped. */
export const RawValue = lazySchema(() =>
  z
    .string()
    .refine((v) => normalizeTaxId(v).length > 0, { message: 'must not be empty' })
    .refine((v) => normalizeTaxId(v).length <= LIMITS.rawValueLength, {
      message: `must be at most ${LIMITS.rawValueLength} characters after removing spaces, dots, dashes and underscores`,
    }),
);

/** Address matched against the registry. */
export const Address = lazySchema(() =>
  z
    .strictObject({
      street: z
        .string()
        .max(256)
        .optional()
        .meta({ description: 'Street and house number; at most 256 characters' }),
      postalCode: z.string().max(32).optional().meta({ description: 'Postal code; at most 32 characters' }),
      city: z.string().max(128).optional().meta({ description: 'City; at most 128 characters' }),
      region: z.string().max(128).optional().meta({ description: 'Region or state; at most 128 characters' }),
      countryCode: CountryCode()
        .optional()
        .meta({ description: 'Country of the address, ISO 3166-1 alpha-2' }),
    })
    .meta({ description: 'Address matched against the registry; every member optional' }),
);

/** Up to 20 pairs; key 1-64 of a-z 0-9 _ -; value at most 512 characters. */
export const CustomerMetadata = lazySchema(() =>
  z
    .record(
      z.string().regex(/^[a-z0-9_-]{1,64}$/),
      z
        .string()
        .max(
          LIMITS.metadataValueLength,
          `metadata value must be at most ${LIMITS.metadataValueLength} characters`,
        ),
      {
        error: (issue) =>
          issue.code === 'invalid_key'
            ? `metadata key '${String(issue.input)}' must be 1 to 64 characters from a-z, 0-9, _ and -`
            : undefined,
      },
    )
    .refine((m) => Object.keys(m).length <= LIMITS.metadataPairs, {
      message: `at most ${LIMITS.metadataPairs} metadata pairs`,
    })
    .meta({
      description: `Caller's own data stored with the result: at most ${LIMITS.metadataPairs} pairs; key 1 to ${LIMITS.metadataKeyLength} characters from a-z, 0-9, _ and -; value at most ${LIMITS.metadataValueLength} characters`,
      maxProperties: LIMITS.metadataPairs,
    }),
);

export const Provider = lazySchema(() => z.enum(PROVIDERS));
export const Frequency = lazySchema(() => z.enum(FREQUENCIES));

const RAW_VALUE = `The VAT or business ID. Spaces, dots, dashes and underscores are stripped; at most ${LIMITS.rawValueLength} characters remain`;
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
    frequency: Frequency().meta({ description: FREQUENCY }),
    mode: z.string().max(64).optional().meta({ description: SCHEDULE_MODE }),
    preferredProvider: Provider().optional().meta({ description: PREFERRED_PROVIDER }),
    manualReviewOnAutomaticFailure: z
      .boolean()
      .optional()
      .meta({ description: MANUAL_REVIEW, default: true }),
    isEnabled: z.boolean().optional().meta({ description: IS_ENABLED, default: true }),
  };
}

/** `attachSchedule`: also put the identifier on a recurring schedule. */
export const AttachSchedule = lazySchema(() =>
  z
    .strictObject({
      ...scheduleSettings(),
    })
    .meta({
      description: 'Also put the identifier on a recurring schedule (needs scheduled validation in the plan)',
    }),
);

/** Input of `POST /validations` and of each batch item. Strict: unknown keys are rejected. */
export const ValidationRequest = lazySchema(() =>
  z.strictObject({
    countryCode: CountryCode().meta({
      description: 'ISO 3166-1 alpha-2 country code; determines the ID scheme',
    }),
    rawValue: RawValue().meta({ description: RAW_VALUE }),
    companyName: z.string().max(LIMITS.companyNameLength).optional().meta({ description: COMPANY_NAME }),
    address: Address().optional(),
    requesterVatId: RawValue().optional().meta({ description: REQUESTER }),
    customerMetadata: CustomerMetadata().optional(),
    preferredProvider: Provider().optional().meta({ description: PREFERRED_PROVIDER }),
    idempotencyKey: z.string().min(1).max(255).optional().meta({
      description:
        'A retried request with the same key and body is not processed twice (200 with the first result); the same key with another body is 409. 1 to 255 characters',
    }),
    correlationId: z
      .string()
      .max(255)
      .optional()
      .meta({ description: "Caller's tracing id, echoed back in the result; at most 255 characters" }),
    attachSchedule: AttachSchedule().optional(),
  }),
);
export type ValidationRequest = z.infer<ReturnType<typeof ValidationRequest>>;

/** Body of `POST /validations/batch`. */
export const BatchRequest = lazySchema(() =>
  z.strictObject({
    items: z
      .array(ValidationRequest())
      .min(1)
      .max(LIMITS.batchItems)
      .meta({
        description: `1 to ${LIMITS.batchItems} validation requests; one structurally invalid item refuses the whole batch (422)`,
      }),
  }),
);
export type BatchRequest = z.infer<ReturnType<typeof BatchRequest>>;

/** Body of `POST /schedules`. */
export const ScheduleRequest = lazySchema(() =>
  z.strictObject({
    countryCode: CountryCode().meta({
      description: 'ISO 3166-1 alpha-2 country code; determines the ID scheme',
    }),
    rawValue: RawValue().meta({ description: RAW_VALUE }),
    ...scheduleSettings(),
    companyName: z.string().max(LIMITS.companyNameLength).optional().meta({ description: COMPANY_NAME }),
    address: Address().optional(),
    requesterVatId: RawValue().optional().meta({ description: REQUESTER }),
  }),
);
export type ScheduleRequest = z.infer<ReturnType<typeof ScheduleRequest>>;
