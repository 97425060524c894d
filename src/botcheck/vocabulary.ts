// The bot-check vocabulary without zod: the id shape and the enum values of the wire objects.
// The schemas (schemas.ts) are built from these, and the code that runs at import or on every call
// (token decoding, evaluate) uses them without loading zod.

/**
 * Shape of a verification id: 8-4-4-4-12 hex digits. Deliberately not an RFC 4122 check, since the
 * documented test ids (`00000000-0000-0000-0000-00000000000N`) carry no version or variant bits.
 */
export const VERIFICATION_ID_PATTERN =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Whether `value` has the shape of a verification id. */
export function isVerificationId(value: string): boolean {
  return VERIFICATION_ID_PATTERN.test(value);
}

/** How the verdict of a current-API result was reached. */
export const DECISION_TYPES = [
  'STANDARD',
  'BYPASS_KEY',
  'CUSTOM_ACCESS_RULE',
  'GLOBAL_IP_ACCESS_RULE',
  'FAILOVER',
  'FAILOVER_TOLERANCE',
] as const;
export type KnownDecisionType = (typeof DECISION_TYPES)[number];

/** The action the current API recommends. */
export const DECISION_ACTIONS = ['NO_ACTION', 'ALLOW', 'BLOCK', 'CUSTOM'] as const;
export type KnownDecisionAction = (typeof DECISION_ACTIONS)[number];

/**
 * Rationale of a legacy result. The documented value is `ONLY_PROOF_OF_WORK`; the reference table
 * also spells it `ONLY_PROOF_OF_WORKS`, which the legacy client normalizes to the former.
 */
export const LEGACY_REASONS = [
  'ONLY_PROOF_OF_WORK',
  'CALCULATED',
  'BYPASS_KEY',
  'CUSTOM_ALLOW_LIST',
  'CUSTOM_BLOCK_LIST',
  'GLOBAL_ALLOW_LIST',
  'GLOBAL_BLOCK_LIST',
  'GEOBLOCKING',
  'REQUEST_REJECTED',
  'CHALLENGES_NOT_SOLVED_CORRECTLY',
  'CHALLENGES_NOT_SOLVED_IN_SPECIFIED_TIME',
  'FAILOVER',
  'FAILOVER_TOLERANCE',
] as const;
export type KnownLegacyReason = (typeof LEGACY_REASONS)[number];

/** Spelling of `ONLY_PROOF_OF_WORK` in the reference's reason table; accepted as an alias. */
export const LEGACY_REASON_ALIASES: Readonly<Record<string, KnownLegacyReason>> = {
  ONLY_PROOF_OF_WORKS: 'ONLY_PROOF_OF_WORK',
};

/** The canonical spelling of a legacy reason (`ONLY_PROOF_OF_WORKS` becomes `ONLY_PROOF_OF_WORK`). */
export function normalizeLegacyReason(reason: string): KnownLegacyReason | (string & {}) {
  // Own properties only: a reason like `constructor` or `__proto__` is just an unknown string.
  return Object.hasOwn(LEGACY_REASON_ALIASES, reason)
    ? (LEGACY_REASON_ALIASES[reason] as KnownLegacyReason)
    : reason;
}
