import type { core } from 'zod/mini';
import { parseResponse } from '../core/parse.js';
import { LegacyAssessment, VerificationResult } from './schemas.js';

// The parsing of bot-check answers, with zod and the schemas: loaded by `resultParsers()` at the
// first fetch, never when an entry is imported. On Node that loader takes the compiled parsers of
// result-parsing-compiled.ts, which parse with these same functions.

/**
 * A current-API answer as a {@link VerificationResult}; throws `MalformedResponseError` otherwise.
 * @param schema the schema to parse with: {@link VerificationResult} (default), or zod's compiled copy of it.
 */
export function parseVerificationResult(
  data: unknown,
  schema: core.$ZodType<VerificationResult> = VerificationResult(),
): VerificationResult {
  return parseResponse(schema, data, 'bot-check result');
}

/**
 * A legacy answer as a {@link LegacyAssessment}; throws `MalformedResponseError` otherwise.
 * @param schema the schema to parse with: {@link LegacyAssessment} (default), or zod's compiled copy of it.
 */
export function parseLegacyAssessment(
  data: unknown,
  schema: core.$ZodType<LegacyAssessment> = LegacyAssessment(),
): LegacyAssessment {
  return parseResponse(schema, data, 'legacy assessment');
}
