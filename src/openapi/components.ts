import * as z from 'zod/mini';
import { AuditEventPageSchema, AuditEventSchema } from '../audit/schemas.js';
import { LegacyAssessmentSchema, VerificationResultSchema } from '../botcheck/schemas.js';
import { ProblemDetailsSchema } from '../core/problem-schema.js';
import {
  BatchRequestSchema,
  ScheduleRequestSchema,
  ValidationRequestSchema,
} from '../tax/request-schemas.js';
import {
  BatchAcceptedSchema,
  PendingValidationSchema,
  ScheduleCreatedSchema,
  ValidationResultSchema,
} from '../tax/response-schemas.js';
import {
  ManualReviewRequiredEventSchema,
  ValidationCompletedEventSchema,
} from '../tax/webhooks/event-schemas.js';

/** Every wire object, named as it appears under `components.schemas`. */
/** Built on first use (the getters build the schemas): importing the root builds none. */
const named = (): ReadonlyArray<[string, z.core.$ZodType, string]> => [
  [
    'ValidationRequest',
    ValidationRequestSchema(),
    'Input of POST /validations and of each batch item. rawValue: at most 20 characters once spaces, dots, dashes and underscores are removed.',
  ],
  ['BatchRequest', BatchRequestSchema(), 'Input of POST /validations/batch.'],
  ['ScheduleRequest', ScheduleRequestSchema(), 'Input of POST /schedules.'],
  [
    'ValidationResult',
    ValidationResultSchema(),
    'A completed validation (201, 200 replay, GET /validation-results/{validationResultId}).',
  ],
  ['PendingValidation', PendingValidationSchema(), 'An accepted, asynchronous validation (202).'],
  ['BatchAccepted', BatchAcceptedSchema(), 'One entry per batch item, in input order (202).'],
  ['ScheduleCreated', ScheduleCreatedSchema(), 'A created schedule (201).'],
  [
    'ValidationCompletedEvent',
    ValidationCompletedEventSchema(),
    'Webhook payload of taxvalidation.validation.completed and .invalid.',
  ],
  [
    'ManualReviewRequiredEvent',
    ManualReviewRequiredEventSchema(),
    'Webhook payload of taxvalidation.validation.manual-review-required.',
  ],
  ['AuditEvent', AuditEventSchema(), 'One audit event.'],
  ['AuditEventPage', AuditEventPageSchema(), 'A page of the audit log, newest first.'],
  ['VerificationResult', VerificationResultSchema(), 'Result of a verification, current bot-check API.'],
  [
    'LegacyAssessment',
    LegacyAssessmentSchema(),
    'Result of a verification, legacy bot-check API; timestamps are UTC without a zone suffix.',
  ],
  ['Problem', ProblemDetailsSchema(), 'RFC 9457 problem document.'],
];

type ZodDef = {
  type: string;
  options?: Array<{ _zod: { def: ZodDef } }>;
  checks?: unknown[];
  entries?: object;
};

/**
 * The document's strict view of an {@link openEnum}: the client parses `known | any string` (a value
 * added later never breaks it), the document publishes the closed list the reference gives, so
 * generated types narrow and a validator flags an unknown value.
 */
export function closeOpenEnums(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  const def = (ctx.zodSchema as { _zod: { def: ZodDef } })._zod.def;
  if (def.type !== 'union' || def.options?.length !== 2) return;
  const [known, any] = def.options.map((o) => o._zod.def) as [ZodDef, ZodDef];
  if (known.type !== 'enum' || any.type !== 'string' || (any.checks?.length ?? 0) > 0) return;
  const json = ctx.jsonSchema;
  const branches = json.anyOf as Array<Record<string, unknown>> | undefined;
  const values = branches?.[0]?.enum;
  if (!Array.isArray(values)) return;
  delete json.anyOf;
  json.type = 'string';
  json.enum = values;
}

/** `components.schemas` generated from the zod schemas (one schema per wire object). */
export function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [id, schema, description] of named()) registry.add(schema, { id, description });
  const { schemas } = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    override: closeOpenEnums,
  }) as { schemas: Record<string, Record<string, unknown>> };
  const out: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}

/** A `$ref` to a component schema. */
export function ref(id: string): { $ref: string } {
  return { $ref: `#/components/schemas/${id}` };
}
