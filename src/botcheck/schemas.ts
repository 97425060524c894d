// Loaded at the first parse, never at import (result-parsers.ts): importing an entry loads no zod.
// zod/mini: the bot-check entry must stay small for Workers and edge bundles (classic zod and
// its locales are most of a bundle). The shapes are those of the wire objects in the reference.
import * as z from 'zod/mini';
import { openEnumMini as openEnum } from '../core/open-enum.js';

import { DECISION_ACTIONS, DECISION_TYPES, LEGACY_REASONS, VERIFICATION_ID_PATTERN } from './vocabulary.js';

// The vocabulary is imported by the reference server, the OpenAPI document and the CLI from here too.
export {
  DECISION_ACTIONS,
  DECISION_TYPES,
  isVerificationId,
  type KnownDecisionAction,
  type KnownDecisionType,
  type KnownLegacyReason,
  LEGACY_REASON_ALIASES,
  LEGACY_REASONS,
  normalizeLegacyReason,
  VERIFICATION_ID_PATTERN,
} from './vocabulary.js';

/** Attaches the words of the reference to a schema, for the OpenAPI document (zod's global registry). */
function described<S extends z.ZodMiniType>(schema: S, meta: z.core.GlobalMeta & { description: string }): S {
  z.globalRegistry.add(schema, meta);
  return schema;
}

const MINIMAL = '; empty in minimal-data mode';
const metadata = (description: string) =>
  described(z.optional(z.nullable(z.string())), { description: `${description}${MINIMAL}` });
const currentTime = (description: string) =>
  described(
    z.optional(
      z.nullable(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a zone' })),
    ),
    { description: `${description}; ISO 8601 UTC` },
  );
// Legacy timestamps are UTC without a zone suffix (`2026-03-01T10:15:30.123`): no `date-time` format.
const legacyTime = (description: string) =>
  described(
    z.optional(
      z.nullable(z.iso.datetime({ local: true, error: 'must be an ISO 8601 UTC timestamp without a zone' })),
    ),
    { description: `${description}; UTC without a zone suffix, with fractional seconds` },
  );
const verificationIdField = (description: string) =>
  described(z.string().check(z.regex(VERIFICATION_ID_PATTERN, 'must be 8-4-4-4-12 hexadecimal digits')), {
    description,
    format: 'uuid',
  });

// Fields both result shapes share: the verdict and the request metadata of the widget.
const verdict = {
  captchaId: described(z.optional(z.string()), { description: 'Id of the captcha' }),
  verificationId: verificationIdField('Id of the verification (UUID)'),
  /** Overall verdict; the field most integrations act on. */
  verificationPassed: described(z.boolean(), {
    description: 'Overall pass/fail verdict; the field most integrations act on',
  }),
  /** Bot risk from 0 (human) to 1 (bot). */
  score: described(z.number().check(z.gte(0), z.lte(1)), {
    description: 'Bot risk from 0 (human) to 1 (bot)',
  }),
};
const requestMetadata = {
  origin: metadata('The page where the captcha was solved'),
  ipAddress: metadata('Client IP address, IPv4 or IPv6'),
  deviceFamily: metadata('Device family of the client'),
  operatingSystem: metadata("Name and version of the client's operating system"),
  browser: metadata("Name and version of the client's browser"),
};

/**
 * Result of `GET /captcha/v2/verifications/{id}/results` (reference 2.5). Lenient: unknown keys
 * are kept and unknown enum values pass through; a value that can never be valid (a score outside
 * 0..1, a timestamp that is not one) is refused. Timestamps are ISO 8601 UTC with milliseconds.
 * The request metadata fields are empty strings in minimal-data mode.
 */
export const VerificationResult = z.looseObject({
  ...verdict,
  decisionType: described(z.optional(openEnum(DECISION_TYPES)), {
    description: 'How the verdict was reached',
  }),
  decisionAction: described(z.optional(openEnum(DECISION_ACTIONS)), {
    description: 'The recommended action',
  }),
  /** true when the failover gateway synthesized the result. */
  gatewayFailoverActive: described(z.optional(z.boolean()), {
    description: 'true when the failover gateway synthesized the result',
  }),
  riskScoringEnabled: described(z.optional(z.boolean()), {
    description: 'Captcha configuration that applied: risk scoring',
  }),
  minimalDataModeEnabled: described(z.optional(z.boolean()), {
    description: 'Captcha configuration that applied: minimal-data mode',
  }),
  ...requestMetadata,
  countryCode: metadata('Country of the client, ISO 3166-1 alpha-2'),
  verificationStartedAt: currentTime('When the widget verification started'),
  verificationFinishedAt: currentTime('When it finished; null while not finished'),
  resultExpiresAt: currentTime('Until when the result is retrievable (15 minutes by default)'),
  resultFirstFetchedAt: currentTime('First retrieval of the result'),
  resultLastFetchedAt: currentTime('Latest retrieval of the result'),
});
export type VerificationResult = z.infer<typeof VerificationResult>;

/**
 * Result of the legacy `GET /verifications/{id}/assessments` (reference 2.6). Timestamps are UTC
 * without a zone suffix and with fractional seconds, e.g. `2026-03-01T10:15:30.123`.
 */
export const LegacyAssessment = z.looseObject({
  ...verdict,
  reason: described(z.optional(openEnum(LEGACY_REASONS)), {
    description: 'Rationale for verificationPassed and score (reference 3.3)',
  }),
  /** Captcha mode, e.g. `STANDARD`. */
  mode: described(z.optional(z.string()), { description: 'Selected captcha mode, e.g. STANDARD' }),
  ...requestMetadata,
  creationTimestamp: legacyTime('When the client started the verification'),
  releaseTimestamp: legacyTime('When the client completed it'),
  retrievalTimestamp: legacyTime('When the website operator fetched the result'),
});
export type LegacyAssessment = z.infer<typeof LegacyAssessment>;

/**
 * The JSON object inside a verification token (reference 2.7). Unknown keys are ignored; a
 * deprecated field that is not a string is dropped before parsing (`decodeVerificationToken`).
 */
export const VerificationTokenPayload = z.object({
  verificationId: verificationIdField('Id used to fetch the result (UUID)'),
  /** @deprecated Never used as a host: the configured base URL is the only endpoint. */
  apiEndpoint: described(z.optional(z.string()), {
    description: 'Deprecated; never used as a host: the configured base URL is the endpoint',
    deprecated: true,
  }),
  /** @deprecated Encrypted access token of the oldest widget versions. */
  encryptedAccessToken: described(z.optional(z.string()), {
    description: 'Deprecated; encrypted access token of the oldest widget versions',
    deprecated: true,
  }),
});
export type VerificationTokenPayload = z.infer<typeof VerificationTokenPayload>;
