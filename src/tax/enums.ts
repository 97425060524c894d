/** Registries a validation can be pinned to or answered by. */
export const PROVIDERS = ['VIES', 'BZST', 'HMRC', 'SWISS_UID', 'BRREG', 'ABR', 'NZBN'] as const;
export type KnownProvider = (typeof PROVIDERS)[number];

/** Outcomes of a validation. UNKNOWN and SOURCE_UNAVAILABLE are never a verdict of invalidity. */
export const OUTCOMES = ['VALID', 'INVALID', 'UNKNOWN', 'SOURCE_UNAVAILABLE', 'NOT_SUPPORTED'] as const;
export type KnownOutcome = (typeof OUTCOMES)[number];

export const VALIDATION_STATUSES = ['PENDING', 'COMPLETED'] as const;

/** Schedule frequencies. */
export const FREQUENCIES = ['MONTHLY', 'QUARTERLY', 'YEARLY'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const MATCH_VALUES = ['MATCH', 'NO_MATCH', 'PARTIAL_MATCH', 'NOT_REQUESTED'] as const;
export const PROVIDER_STATUSES = ['SUCCESS', 'PROVIDER_ERROR'] as const;
export const VERIFICATION_METHODS = ['AUTOMATIC', 'MANUAL'] as const;

/** Documented limits of a validation request. */
export const LIMITS = {
  rawValueLength: 20,
  companyNameLength: 256,
  metadataPairs: 20,
  metadataKeyLength: 64,
  metadataValueLength: 512,
  batchItems: 1000,
} as const;
