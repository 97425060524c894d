import { z } from 'zod';
import { FREQUENCIES, LIMITS, PROVIDERS } from './enums.js';
import { normalizeTaxId } from './precheck/index.js';

const CountryCode = z.string().regex(/^[A-Z]{2}$/, 'must be a 2-letter ISO country code in upper case');

/** A VAT or business ID: 1 to 20 characters once spaces, dots, dashes and underscores are stripped. */
export const RawValue = z
  .string()
  .refine((v) => normalizeTaxId(v).length > 0, { message: 'must not be empty' })
  .refine((v) => normalizeTaxId(v).length <= LIMITS.rawValueLength, {
    message: `must be at most ${LIMITS.rawValueLength} characters after removing spaces, dots, dashes and underscores`,
  });

/** Address matched against the registry. */
export const Address = z.strictObject({
  street: z.string().max(256).optional(),
  postalCode: z.string().max(32).optional(),
  city: z.string().max(128).optional(),
  region: z.string().max(128).optional(),
  countryCode: CountryCode.optional(),
});

/** Up to 20 pairs; key 1-64 of a-z 0-9 _ -; value at most 512 characters. */
export const CustomerMetadata = z
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
  });

export const Provider = z.enum(PROVIDERS);
export const Frequency = z.enum(FREQUENCIES);

/** `attachSchedule`: also put the identifier on a recurring schedule. */
export const AttachSchedule = z.strictObject({
  frequency: Frequency,
  mode: z.string().max(64).optional(),
  preferredProvider: Provider.optional(),
  manualReviewOnAutomaticFailure: z.boolean().optional(),
  isEnabled: z.boolean().optional(),
});

/** Input of `POST /validations` and of each batch item. Strict: unknown keys are rejected. */
export const ValidationRequest = z.strictObject({
  countryCode: CountryCode,
  rawValue: RawValue,
  companyName: z.string().max(LIMITS.companyNameLength).optional(),
  address: Address.optional(),
  requesterVatId: RawValue.optional(),
  customerMetadata: CustomerMetadata.optional(),
  preferredProvider: Provider.optional(),
  idempotencyKey: z.string().min(1).max(255).optional(),
  correlationId: z.string().max(255).optional(),
  attachSchedule: AttachSchedule.optional(),
});
export type ValidationRequest = z.infer<typeof ValidationRequest>;

/** Body of `POST /validations/batch`. */
export const BatchRequest = z.strictObject({
  items: z.array(ValidationRequest).min(1).max(LIMITS.batchItems),
});
export type BatchRequest = z.infer<typeof BatchRequest>;

/** Body of `POST /schedules`. */
export const ScheduleRequest = z.strictObject({
  countryCode: CountryCode,
  rawValue: RawValue,
  frequency: Frequency,
  mode: z.string().max(64).optional(),
  preferredProvider: Provider.optional(),
  manualReviewOnAutomaticFailure: z.boolean().optional(),
  isEnabled: z.boolean().optional(),
  companyName: z.string().max(LIMITS.companyNameLength).optional(),
  address: Address.optional(),
  requesterVatId: RawValue.optional(),
});
export type ScheduleRequest = z.infer<typeof ScheduleRequest>;
