/** Registries a validation can be pinned to or answered by. */
export const PROVIDERS = ['VIES', 'BZST', 'HMRC', 'SWISS_UID', 'BRREG', 'ABR', 'NZBN'] as const;
export type KnownProvider = (typeof PROVIDERS)[number];

/** Outcomes of a validation. UNKNOWN and SOURCE_UNAVAILABLE are never a verdict of invalidity. */
export const OUTCOMES = ['VALID', 'INVALID', 'UNKNOWN', 'SOURCE_UNAVAILABLE', 'NOT_SUPPORTED'] as const;
export type KnownOutcome = (typeof OUTCOMES)[number];

export const VALIDATION_STATUSES = ['PENDING', 'COMPLETED'] as const;

/**
 * How much of the offline pre-check blocks a request before it is sent:
 * - `off`: only the request schema;
 * - `structural` (default): what the API itself would refuse with 422 (the schema covers it);
 * - `strict`: also well-formed IDs whose format or check digit is wrong for their country.
 */
export const PRECHECK_MODES = ['off', 'structural', 'strict'] as const;
/** How much the pre-check refuses before sending: `off`, `structural` (format and length), `strict` (also the check digit). */
export type PrecheckMode = (typeof PRECHECK_MODES)[number];

/** Schedule frequencies. */
export const FREQUENCIES = ['MONTHLY', 'QUARTERLY', 'YEARLY'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const MATCH_VALUES = ['MATCH', 'NO_MATCH', 'PARTIAL_MATCH', 'NOT_REQUESTED'] as const;
export const PROVIDER_STATUSES = ['SUCCESS', 'PROVIDER_ERROR'] as const;
export const VERIFICATION_METHODS = ['AUTOMATIC', 'MANUAL'] as const;

/** Documented limits of a validation request. */
export const LIMITS = {
  rawValueLength: 20,
  /**
   * Characters of a raw value as sent, before spaces, dots, dashes and underscores are stripped:
   * a formatted ID is far shorter (`DE 136.695.976` is 14), and a value padded with megabytes of
   * spaces is refused before it is normalised, stored or shown.
   */
  rawValueRawLength: 64,
  companyNameLength: 256,
  metadataPairs: 20,
  metadataKeyLength: 64,
  metadataValueLength: 512,
  batchItems: 1000,
} as const;
