// The public names of types whose module also has a value of the same name (a wire schema, or a
// class users get but never construct), as type aliases: tsup's declaration bundler
// (rollup-plugin-dts) tracks names, not meanings, so `export type { X } from` a module where X is
// also a value would declare X as a value in the entry's .d.ts, which the JavaScript does not
// export (`X()` would type-check and fail at run time). An alias is a type and nothing else.

import type {
  LegacyAssessment as LegacyAssessmentType,
  VerificationResult as VerificationResultType,
  VerificationTokenPayload as VerificationTokenPayloadType,
} from './schemas.js';

/**
 * Result of the legacy `GET /verifications/{id}/assessments` (reference 2.6). Timestamps are UTC
 * without a zone suffix and with fractional seconds, e.g. `2026-03-01T10:15:30.123`.
 */
export type LegacyAssessment = LegacyAssessmentType;

/**
 * Result of `GET /captcha/v2/verifications/{id}/results` (reference 2.5). Lenient: unknown keys
 * are kept and unknown enum values pass through; a value that can never be valid (a score outside
 * 0..1, a timestamp that is not one) is refused. Timestamps are ISO 8601 UTC with milliseconds.
 * The request metadata fields are empty strings in minimal-data mode.
 */
export type VerificationResult = VerificationResultType;

/**
 * The JSON object inside a verification token (reference 2.7). Unknown keys are ignored; a
 * deprecated field that is not a string is dropped before parsing (`decodeVerificationToken`).
 */
export type VerificationTokenPayload = VerificationTokenPayloadType;
