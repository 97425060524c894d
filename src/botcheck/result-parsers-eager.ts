import { parseLegacyAssessment, parseVerificationResult } from './result-parsing.js';

// The web build's `result-parsers.ts` (tsup.config.ts swaps it in): a bundler that builds a Worker,
// an edge route or a page inlines a dynamic import as lazily initialised modules, which adds about
// 1 KiB to a minified Worker; there the parsers are bundled in as static imports instead. One
// function per API, so that a Worker that uses only `BotCheckClient` bundles no legacy schema.

/** The parser of current-API answers, already loaded. */
export function verificationResultParser(): typeof parseVerificationResult {
  return parseVerificationResult;
}

/** The parser of legacy answers, already loaded. */
export function legacyAssessmentParser(): typeof parseLegacyAssessment {
  return parseLegacyAssessment;
}
