import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { compiledSchema, loadSchemaCompiler, provideSchemaCompiler } from '../../src/core/schema-compiler.js';
import { compileSchema } from '../../src/node/schema-compiler.js';
import { ValidationRequestSchema } from '../../src/tax/request-schemas.js';
import { BatchAcceptedSchema } from '../../src/tax/response-schemas.js';

/** What a parse gives: the data with its key order, or the issues. */
function outcome(schema: z.core.$ZodType, input: unknown) {
  const parsed = z.safeParse(schema, input);
  if (parsed.success) return { data: parsed.data, keys: JSON.stringify(parsed.data) };
  return { issues: parsed.error.issues };
}

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('DE', 'de', 'D', 'DE123456789', '123456789', ' 1.2-3_4 ', '', 'x'.repeat(70)),
);
const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));

/** Rows as a file's columns make them, and worse: every field, unknown keys, wrong types. */
const request = fc.record(
  {
    countryCode: fc.oneof(fc.constantFrom('DE', 'FR', 'AT'), value),
    rawValue: fc.oneof(fc.constantFrom('123456789', 'DE 136.695-976'), value),
    companyName: value,
    address: fc.oneof(
      fc.record({ street: value, city: value, countryCode: value }, { requiredKeys: [] }),
      value,
    ),
    requesterVatId: value,
    customerMetadata: fc.oneof(fc.dictionary(fc.constantFrom('a', 'b_1', 'Bad Key'), value), value),
    preferredProvider: fc.oneof(fc.constantFrom('VIES', 'BZST'), value),
    idempotencyKey: value,
    correlationId: value,
    attachSchedule: fc.oneof(fc.record({ frequency: fc.constantFrom('MONTHLY', 'weekly') }), value),
    extra: value,
  },
  { requiredKeys: [] },
);

/** Rows that pass, with any of the optional fields. */
const validRequest = fc.record(
  {
    countryCode: fc.constantFrom('DE', 'FR', 'AT'),
    rawValue: fc.constantFrom('123456789', 'DE 136.695-976', 'ATU12345678'),
    companyName: fc.string({ maxLength: 20 }),
    address: fc.record(
      { street: fc.string({ maxLength: 5 }), countryCode: fc.constant('DE') },
      { requiredKeys: [] },
    ),
    customerMetadata: fc.dictionary(fc.constantFrom('a', 'b_1'), fc.string({ maxLength: 5 })),
    preferredProvider: fc.constantFrom('VIES', 'BZST'),
    idempotencyKey: fc.string({ minLength: 1, maxLength: 20 }),
    correlationId: fc.string({ maxLength: 5 }),
  },
  { requiredKeys: ['countryCode', 'rawValue'] },
);

/** Batch answers: the documented entries, and entries a broken or newer server might send. */
const entry = fc.record(
  {
    index: fc.oneof(fc.nat(120), fc.constantFrom(-1, 1.5), value),
    validationRequestId: fc.oneof(fc.string({ minLength: 1, maxLength: 10 }), value),
    status: fc.oneof(fc.constantFrom('PENDING', 'COMPLETED', 'SOMETHING_NEW'), value),
    idempotencyKey: value,
    validationResultId: value,
    replay: fc.oneof(fc.boolean(), value),
    later: value,
  },
  { requiredKeys: ['index', 'validationRequestId', 'status'] },
);
const validEntry = fc.record(
  {
    index: fc.nat(120),
    validationRequestId: fc.string({ minLength: 1, maxLength: 10 }),
    status: fc.constantFrom('PENDING', 'SOMETHING_NEW'),
    idempotencyKey: fc.string({ maxLength: 10 }),
    validationResultId: fc.string({ maxLength: 10 }),
    replay: fc.boolean(),
    later: value,
  },
  { requiredKeys: ['index', 'validationRequestId', 'status'] },
);
const answer = fc.oneof(
  fc.record({ items: fc.array(fc.oneof(entry, validEntry), { maxLength: 5 }), more: value }),
  fc.record({ items: fc.array(validEntry, { maxLength: 5 }) }),
  value,
);

describe('a schema compiled for batches accepts, returns and refuses exactly what the schema does', () => {
  it('validation requests (each row of a batch): same data and key order, same issues', () => {
    const compiled = compileSchema(ValidationRequestSchema());
    fc.assert(
      fc.property(fc.oneof(request, validRequest), (input) => {
        expect(outcome(compiled, input)).toEqual(outcome(ValidationRequestSchema(), input));
      }),
      { numRuns: 2000 },
    );
  });

  it('batch answers (each chunk sent): same data and key order, same issues', () => {
    const compiled = compileSchema(BatchAcceptedSchema());
    fc.assert(
      fc.property(answer, (input) => {
        expect(outcome(compiled, input)).toEqual(outcome(BatchAcceptedSchema(), input));
      }),
      { numRuns: 2000 },
    );
  });

  it('a compiled parse returns a copy: the runner may complete the request in place', () => {
    const input = { countryCode: 'DE', rawValue: '123456789' };
    const parsed = z.safeParse(compileSchema(ValidationRequestSchema()), input);
    expect(parsed.success && parsed.data).not.toBe(input);
  });
});

describe('the batch parses use the compiler once it is loaded, the schema as it is until then', () => {
  it('before a compiler is provided and loaded, the getter gives the schema itself; after, its compiled copy', async () => {
    const getter = compiledSchema(ValidationRequestSchema);
    await loadSchemaCompiler();
    expect(getter()).toBe(ValidationRequestSchema());
    provideSchemaCompiler(() => Promise.reject(new Error('no compiler here')));
    await loadSchemaCompiler();
    expect(getter()).toBe(ValidationRequestSchema());
    provideSchemaCompiler(async () => compileSchema);
    await loadSchemaCompiler();
    expect(getter()).not.toBe(ValidationRequestSchema());
    expect(getter()).toBe(getter());
  });
});
