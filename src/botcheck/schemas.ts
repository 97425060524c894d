// zod/mini: the bot-check entry must stay small for Workers and edge bundles (classic zod and
// its locales are most of a bundle). The shapes are those of the wire objects in the reference.
import * as z from 'zod/mini';
import { openEnumMini as openEnum } from '../core/open-enum.js';

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

const metadata = z.optional(z.nullable(z.string()));
const timestamp = z.optional(z.nullable(z.string()));

// Fields both result shapes share: the verdict and the request metadata of the widget.
const verdict = {
  captchaId: z.optional(z.string()),
  verificationId: z.string(),
  /** Overall verdict; the field most integrations act on. */
  verificationPassed: z.boolean(),
  /** Bot risk from 0 (human) to 1 (bot). */
  score: z.number(),
};
const requestMetadata = {
  origin: metadata,
  ipAddress: metadata,
  deviceFamily: metadata,
  operatingSystem: metadata,
  browser: metadata,
};

/**
 * Result of `GET /captcha/v2/verifications/{id}/results` (reference 2.5). Lenient: unknown keys
 * are kept and unknown enum values pass through. Timestamps are ISO 8601 UTC with milliseconds.
 * The request metadata fields are empty strings in minimal-data mode.
 */
export const VerificationResult = z.looseObject({
  ...verdict,
  decisionType: z.optional(openEnum(DECISION_TYPES)),
  decisionAction: z.optional(openEnum(DECISION_ACTIONS)),
  /** true when the failover gateway synthesized the result. */
  gatewayFailoverActive: z.optional(z.boolean()),
  riskScoringEnabled: z.optional(z.boolean()),
  minimalDataModeEnabled: z.optional(z.boolean()),
  ...requestMetadata,
  countryCode: metadata,
  verificationStartedAt: timestamp,
  verificationFinishedAt: timestamp,
  resultExpiresAt: timestamp,
  resultFirstFetchedAt: timestamp,
  resultLastFetchedAt: timestamp,
});
export type VerificationResult = z.infer<typeof VerificationResult>;

/**
 * Result of the legacy `GET /verifications/{id}/assessments` (reference 2.6). Timestamps are UTC
 * without a zone suffix and with fractional seconds, e.g. `2026-03-01T10:15:30.123`.
 */
export const LegacyAssessment = z.looseObject({
  ...verdict,
  reason: z.optional(openEnum(LEGACY_REASONS)),
  /** Captcha mode, e.g. `STANDARD`. */
  mode: z.optional(z.string()),
  ...requestMetadata,
  creationTimestamp: timestamp,
  releaseTimestamp: timestamp,
  retrievalTimestamp: timestamp,
});
export type LegacyAssessment = z.infer<typeof LegacyAssessment>;

/**
 * The JSON object inside a verification token (reference 2.7). Unknown keys are ignored; a
 * deprecated field that is not a string is dropped before parsing (`decodeVerificationToken`).
 */
export const VerificationTokenPayload = z.object({
  verificationId: z.string().check(z.regex(VERIFICATION_ID_PATTERN, 'must be 8-4-4-4-12 hexadecimal digits')),
  /** @deprecated Never used as a host: the configured base URL is the only endpoint. */
  apiEndpoint: z.optional(z.string()),
  /** @deprecated Encrypted access token of the oldest widget versions. */
  encryptedAccessToken: z.optional(z.string()),
});
export type VerificationTokenPayload = z.infer<typeof VerificationTokenPayload>;
