import { compiledCopy } from '../core/compiled-object.js';
import { lazySchema } from '../core/lazy-schema.js';
import * as parsing from './result-parsing.js';
import { LegacyAssessment, VerificationResult } from './schemas.js';

// The Node build's bot-check parsers (result-parsers.ts loads this module; the Web build never
// does): the same schemas, parsed by zod's compiled object parser ($ZodObjectJIT, which zod/mini
// leaves out for size): a bot-check result parses in about 2 us instead of 3 us. Same definition,
// so the same values pass, fail and come out. Where code generation is not allowed
// (`new Function`), zod parses as it would without it.

const compiledResult = /* @__PURE__ */ lazySchema(() => compiledCopy(VerificationResult()));
const compiledAssessment = /* @__PURE__ */ lazySchema(() => compiledCopy(LegacyAssessment()));

/** {@link parsing.parseVerificationResult} with the compiled copy of its schema. */
export function parseVerificationResult(data: unknown): VerificationResult {
  return parsing.parseVerificationResult(data, compiledResult());
}

/** {@link parsing.parseLegacyAssessment} with the compiled copy of its schema. */
export function parseLegacyAssessment(data: unknown): LegacyAssessment {
  return parsing.parseLegacyAssessment(data, compiledAssessment());
}
