import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { LegacyAssessmentSchema, VerificationResultSchema } from '../../src/botcheck/schemas.js';

// The timestamp fields are built from zod's ISO date-time class rather than through `z.iso`
// (which would make a Worker's bundler keep every ISO format): they must be exactly zod's
// `z.iso.datetime` with the same options, in what they accept and in the OpenAPI format.

/** The timestamp schema inside `z.optional(z.nullable(...))`. */
function inner(field: z.ZodMiniType): z.ZodMiniType {
  const nullable = (field as z.ZodMiniOptional)._zod.def.innerType as z.ZodMiniNullable;
  return nullable._zod.def.innerType as z.ZodMiniType;
}

const stamp = fc
  .tuple(
    fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }),
    fc.constantFrom('Z', '', '+01:00', '-23:59', '+24:00', '.5Z', '.123456', 'z', ' '),
  )
  .map(([date, suffix]) => date.toISOString().slice(0, 19) + suffix);
const anything = fc.oneof(stamp, fc.string(), fc.integer(), fc.constant(null));

describe('a timestamp of a bot-check result is an ISO 8601 date-time (current: with a zone; legacy: without)', () => {
  const cases = [
    ['current', inner(VerificationResultSchema().shape.resultExpiresAt), { offset: true }],
    ['legacy', inner(LegacyAssessmentSchema().shape.releaseTimestamp), { local: true }],
  ] as const;
  for (const [api, schema, options] of cases) {
    it(`${api}: accepts and refuses exactly what z.iso.datetime(${JSON.stringify(options)}) does`, () => {
      const reference = z.iso.datetime({ ...options, error: 'x' });
      fc.assert(
        fc.property(anything, (value) => {
          expect(z.safeParse(schema, value).success).toBe(z.safeParse(reference, value).success);
        }),
      );
      expect(z.safeParse(schema, '2026-03-01T10:15:30.123').success).toBe(api === 'legacy');
      expect(z.safeParse(schema, '2026-03-01T10:15:30+01:00').success).toBe(api === 'current');
    });

    it(`${api}: has the JSON schema of z.iso.datetime (format date-time where a zone is required)`, () => {
      expect(z.toJSONSchema(schema)).toEqual(z.toJSONSchema(z.iso.datetime(options)));
    });
  }
});
