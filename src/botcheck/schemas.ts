// zod/mini: the bot-check entry must stay small for Workers and edge bundles (classic zod and
// its locales are most of a bundle). The shapes are those of the wire objects in the reference.
import * as z from 'zod/mini';
// What zod/mini's index re-exports itself (its registry, its ISO classes) is named from zod/v4/core:
// reaching that index makes esbuild put every file it re-exports, the JSON Schema generator of the
// root's OpenAPI document included, in the chunk `svc-sdk/botcheck` loads (issue 42).
import { $ZodISODateTime, globalRegistry } from 'zod/v4/core';
import { openEnum } from '../core/open-enum.js';
import { SCHEMA_DOCS } from '../core/schema-docs.js';

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

import { lazySchema } from '../core/lazy-schema.js';

type Meta = z.core.GlobalMeta & { description: string };

/**
 * Attaches the words of the reference to a schema, for the OpenAPI document (zod's global
 * registry). Call sites pass `SCHEMA_DOCS && {...}`: the Web build leaves the words out.
 */
function described<S extends z.ZodMiniType>(schema: S, meta: Meta | false): S {
  if (SCHEMA_DOCS && meta) globalRegistry.add(schema, meta);
  return schema;
}

/**
 * `z.iso.datetime(...)`, built from zod's core class (the one zod/mini's class extends): reading
 * `z.iso` makes a bundler keep every member of that namespace (date, time and duration formats
 * with their patterns), which a Worker that checks timestamps never uses. Same parse, same
 * `date-time` format in the OpenAPI document.
 */
function isoDateTime(options: { offset?: boolean; local?: boolean }, error: string): $ZodISODateTime {
  return new $ZodISODateTime({
    type: 'string',
    format: 'datetime',
    check: 'string_format',
    offset: false,
    local: false,
    precision: null,
    ...options,
    error: () => error,
  });
}

const MINIMAL = '; empty in minimal-data mode';
const metadata = (description: string | false) =>
  described(z.optional(z.nullable(z.string())), SCHEMA_DOCS && { description: `${description}${MINIMAL}` });
/** An optional boolean field (a flag of the captcha configuration or of the gateway). */
const flag = (description: string | false) =>
  described(z.optional(z.boolean()), SCHEMA_DOCS && description !== false && { description });
const currentTime = (description: string | false) =>
  described(
    z.optional(z.nullable(isoDateTime({ offset: true }, 'must be an ISO 8601 timestamp with a zone'))),
    SCHEMA_DOCS && { description: `${description}; ISO 8601 UTC` },
  );
// Legacy timestamps are UTC without a zone suffix (`2026-03-01T10:15:30.123`): no `date-time` format.
const legacyTime = (description: string | false) =>
  described(
    z.optional(z.nullable(isoDateTime({ local: true }, 'must be an ISO 8601 UTC timestamp without a zone'))),
    SCHEMA_DOCS && { description: `${description}; UTC without a zone suffix, with fractional seconds` },
  );
const verificationIdField = (description: string | false) =>
  described(
    z.string().check(z.regex(VERIFICATION_ID_PATTERN, 'must be 8-4-4-4-12 hexadecimal digits')),
    SCHEMA_DOCS && { description: description as string, format: 'uuid' },
  );

// Fields both result shapes share: the verdict and the request metadata of the widget.
const verdict = /* @__PURE__ */ lazySchema(() => ({
  captchaId: described(z.optional(z.string()), SCHEMA_DOCS && { description: 'Id of the captcha' }),
  verificationId: verificationIdField(SCHEMA_DOCS && 'Id of the verification (UUID)'),
  /** Overall verdict; the field most integrations act on. */
  verificationPassed: described(
    z.boolean(),
    SCHEMA_DOCS && {
      description: 'Overall pass/fail verdict; the field most integrations act on',
    },
  ),
  /** Bot risk from 0 (human) to 1 (bot). */
  score: described(
    z.number().check(z.gte(0), z.lte(1)),
    SCHEMA_DOCS && {
      description: 'Bot risk from 0 (human) to 1 (bot)',
    },
  ),
}));
const requestMetadata = /* @__PURE__ */ lazySchema(() => ({
  origin: metadata(SCHEMA_DOCS && 'The page where the captcha was solved'),
  ipAddress: metadata(SCHEMA_DOCS && 'Client IP address, IPv4 or IPv6'),
  deviceFamily: metadata(SCHEMA_DOCS && 'Device family of the client'),
  operatingSystem: metadata(SCHEMA_DOCS && "Name and version of the client's operating system"),
  browser: metadata(SCHEMA_DOCS && "Name and version of the client's browser"),
}));

/**
 * Result of `GET /captcha/v2/verifications/{id}/results` (reference 2.5). Lenient: unknown keys
 * are kept and unknown enum values pass through; a value that can never be valid (a score outside
 * 0..1, a timestamp that is not one) is refused. Timestamps are ISO 8601 UTC with milliseconds.
 * The request metadata fields are empty strings in minimal-data mode.
 */
export const VerificationResultSchema = /* @__PURE__ */ lazySchema(() =>
  z.looseObject({
    ...verdict(),
    decisionType: described(
      z.optional(openEnum(SCHEMA_DOCS && DECISION_TYPES)),
      SCHEMA_DOCS && {
        description: 'How the verdict was reached',
      },
    ),
    decisionAction: described(
      z.optional(openEnum(SCHEMA_DOCS && DECISION_ACTIONS)),
      SCHEMA_DOCS && {
        description: 'The recommended action',
      },
    ),
    /** true when the failover gateway synthesized the result. */
    gatewayFailoverActive: flag(SCHEMA_DOCS && 'true when the failover gateway synthesized the result'),
    riskScoringEnabled: flag(SCHEMA_DOCS && 'Captcha configuration that applied: risk scoring'),
    minimalDataModeEnabled: flag(SCHEMA_DOCS && 'Captcha configuration that applied: minimal-data mode'),
    ...requestMetadata(),
    countryCode: metadata(SCHEMA_DOCS && 'Country of the client, ISO 3166-1 alpha-2'),
    verificationStartedAt: currentTime(SCHEMA_DOCS && 'When the widget verification started'),
    verificationFinishedAt: currentTime(SCHEMA_DOCS && 'When it finished; null while not finished'),
    resultExpiresAt: currentTime(
      SCHEMA_DOCS && 'Until when the result is retrievable (15 minutes by default)',
    ),
    resultFirstFetchedAt: currentTime(SCHEMA_DOCS && 'First retrieval of the result'),
    resultLastFetchedAt: currentTime(SCHEMA_DOCS && 'Latest retrieval of the result'),
  }),
);
/**
 * Result of `GET /captcha/v2/verifications/{id}/results` (reference 2.5). Lenient: unknown keys
 * are kept and unknown enum values pass through; a value that can never be valid (a score outside
 * 0..1, a timestamp that is not one) is refused. Timestamps are ISO 8601 UTC with milliseconds.
 * The request metadata fields are empty strings in minimal-data mode.
 */
export type VerificationResult = z.infer<ReturnType<typeof VerificationResultSchema>>;

/**
 * Result of the legacy `GET /verifications/{id}/assessments` (reference 2.6). Timestamps are UTC
 * without a zone suffix and with fractional seconds, e.g. `2026-03-01T10:15:30.123`.
 */
export const LegacyAssessmentSchema = /* @__PURE__ */ lazySchema(() =>
  z.looseObject({
    ...verdict(),
    reason: described(
      z.optional(openEnum(SCHEMA_DOCS && LEGACY_REASONS)),
      SCHEMA_DOCS && {
        description: 'Rationale for verificationPassed and score (reference 3.3)',
      },
    ),
    /** Captcha mode, e.g. `STANDARD`. */
    mode: described(
      z.optional(z.string()),
      SCHEMA_DOCS && { description: 'Selected captcha mode, e.g. STANDARD' },
    ),
    ...requestMetadata(),
    creationTimestamp: legacyTime(SCHEMA_DOCS && 'When the client started the verification'),
    releaseTimestamp: legacyTime(SCHEMA_DOCS && 'When the client completed it'),
    retrievalTimestamp: legacyTime(SCHEMA_DOCS && 'When the website operator fetched the result'),
  }),
);
/**
 * Result of the legacy `GET /verifications/{id}/assessments` (reference 2.6). Timestamps are UTC
 * without a zone suffix and with fractional seconds, e.g. `2026-03-01T10:15:30.123`.
 */
export type LegacyAssessment = z.infer<ReturnType<typeof LegacyAssessmentSchema>>;

/**
 * The JSON object inside a verification token (reference 2.7). Unknown keys are ignored; a
 * deprecated field that is not a string is dropped before parsing (`decodeVerificationToken`).
 */
export const VerificationTokenPayloadSchema = /* @__PURE__ */ lazySchema(() =>
  z.object({
    verificationId: verificationIdField(SCHEMA_DOCS && 'Id used to fetch the result (UUID)'),
    /** @deprecated Never used as a host: the configured base URL is the only endpoint. */
    apiEndpoint: described(
      z.optional(z.string()),
      SCHEMA_DOCS && {
        description: 'Deprecated; never used as a host: the configured base URL is the endpoint',
        deprecated: true,
      },
    ),
    /** @deprecated Encrypted access token of the oldest widget versions. */
    encryptedAccessToken: described(
      z.optional(z.string()),
      SCHEMA_DOCS && {
        description: 'Deprecated; encrypted access token of the oldest widget versions',
        deprecated: true,
      },
    ),
  }),
);
/**
 * The JSON object inside a verification token (reference 2.7). Unknown keys are ignored; a
 * deprecated field that is not a string is dropped before parsing (`decodeVerificationToken`).
 */
export type VerificationTokenPayload = z.infer<ReturnType<typeof VerificationTokenPayloadSchema>>;
