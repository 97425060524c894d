import { parseResponse } from '../core/parse.js';
import {
  type LegacyAssessment,
  LegacyAssessmentSchema,
  type VerificationResult,
  VerificationResultSchema,
} from './schemas.js';

// The parsing of bot-check answers: one function per API, so that a Worker that uses only
// `BotCheckClient` bundles no legacy schema. The schemas are built at the first parse
// (schemas.ts), not when an entry is imported.

/** A current-API answer as a {@link VerificationResult}; throws `MalformedResponseError` otherwise. */
export function parseVerificationResult(data: unknown): VerificationResult {
  return parseResponse(VerificationResultSchema(), data, 'bot-check result');
}

/** A legacy answer as a {@link LegacyAssessment}; throws `MalformedResponseError` otherwise. */
export function parseLegacyAssessment(data: unknown): LegacyAssessment {
  return parseResponse(LegacyAssessmentSchema(), data, 'legacy assessment');
}
