import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeParse } from 'zod/mini';
import * as runtime from '../../src/botcheck/result-parsing.js';
import * as compiled from '../../src/botcheck/result-parsing-compiled.js';
import { LegacyAssessment, VerificationResult } from '../../src/botcheck/schemas.js';
import { compiledCopy } from '../../src/core/compiled-object.js';
import { verificationResultExample } from '../../src/openapi/examples.js';

// The documented example answer (the OpenAPI document's), with a null the schema allows.
const RESULT = { ...verificationResultExample, resultLastFetchedAt: null };
const ASSESSMENT = {
  verificationId: '00000000-0000-0000-0000-000000000000',
  verificationPassed: false,
  score: 0.9,
  reason: 'ONLY_PROOF_OF_WORKS',
  mode: 'STANDARD',
  origin: '',
  creationTimestamp: '2026-03-01T10:15:30.123',
  releaseTimestamp: '2026-03-01T10:15:31.5',
  retrievalTimestamp: null,
};

/** Any JSON-ish value, including the kinds each field must refuse. */
const anyValue = fc.oneof(
  fc.constantFrom(undefined, null, true, false, 0, 1, -1, 0.5, 1.5, Number.NaN, '', 'x', [], {}),
  fc.constantFrom(
    '2026-11-26T09:00:58Z',
    '2026-11-26T09:00:58.397+01:00',
    '2026-03-01T10:15:30.123',
    '2026-13-01T00:00:00Z',
  ),
  fc.constantFrom('00000000-0000-0000-0000-00000000000G', 'STANDARD', 'NEW_VALUE'),
  fc.string({ maxLength: 30 }),
  fc.double(),
);

/** `base` with some fields replaced, removed or added. */
function variants(base: Record<string, unknown>) {
  const keys = [...Object.keys(base), 'unknownField', '__proto__', 'constructor'];
  return fc.array(fc.tuple(fc.constantFrom(...keys), anyValue), { maxLength: 4 }).map((changes) => {
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of changes) {
      if (value === undefined) delete out[key];
      else Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
    }
    return out;
  });
}

describe('the Node build parses bot-check answers with a compiled copy of the one schema: the same values pass, come out and fail', () => {
  for (const [name, schema, base] of [
    ['current result', VerificationResult, RESULT],
    ['legacy assessment', LegacyAssessment, ASSESSMENT],
  ] as const) {
    it(`${name}: property, against the schema's own parser`, () => {
      const original = schema();
      const copy = compiledCopy(original);
      expect(copy).not.toBe(original);
      fc.assert(
        fc.property(fc.oneof(variants(base), anyValue), (input) => {
          const a = safeParse(original, input);
          const b = safeParse(copy, input);
          expect(b.success).toBe(a.success);
          if (a.success && b.success) {
            expect(JSON.stringify(b.data)).toBe(JSON.stringify(a.data));
            expect(b.data).toEqual(a.data);
          } else expect(b.error?.issues).toEqual(a.error?.issues);
        }),
        { numRuns: 2000 },
      );
    });
  }

  it('the parsers the Node build loads give the same results and the same errors', () => {
    expect(compiled.parseVerificationResult({ ...RESULT, extra: 1 })).toEqual(
      runtime.parseVerificationResult({ ...RESULT, extra: 1 }),
    );
    expect(compiled.parseLegacyAssessment(ASSESSMENT)).toEqual(runtime.parseLegacyAssessment(ASSESSMENT));
    const bad = { ...RESULT, score: 2 };
    const message = (parse: (data: unknown) => unknown) => {
      try {
        parse(bad);
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    };
    expect(message(runtime.parseVerificationResult)).toMatch(
      /^Unexpected bot-check result from the server: score /,
    );
    expect(message(compiled.parseVerificationResult)).toBe(message(runtime.parseVerificationResult));
  });
});
