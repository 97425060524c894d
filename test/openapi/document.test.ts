import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { AuditEventsQuerySchema, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/audit/query.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { runSvc } from '../helpers/cli.js';

const ENDPOINTS: Array<[string, string]> = [
  ['post', '/taxvalidation/v1/validations'],
  ['post', '/taxvalidation/v1/validations/batch'],
  ['post', '/taxvalidation/v1/schedules'],
  ['delete', '/taxvalidation/v1/schedules/{scheduleId}'],
  ['get', '/taxvalidation/v1/validation-results/{validationResultId}'],
  ['get', '/platform/v1/events'],
  ['get', '/captcha/v2/verifications/{verificationId}/results'],
  ['get', '/verifications/{verificationId}/assessments'],
];

describe('the OpenAPI 3.1 document of the four APIs', () => {
  it('validates with an OpenAPI validator', async () => {
    const result = await validate(structuredClone(buildOpenApiDocument()) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.valid).toBe(true);
    // The validator does reject a broken document, so the check above means something.
    const broken = structuredClone(buildOpenApiDocument()) as { paths: Record<string, unknown> };
    broken.paths['/broken'] = { get: { responses: { 200: { $ref: '#/components/schemas/Missing' } } } };
    const bad = await validate(broken as never).catch((e: unknown) => ({ valid: false, errors: [e] }));
    expect(bad.valid).toBe(false);
  });

  it('lists every endpoint of the reference with its path parameters named as the reference names them', () => {
    const doc = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    for (const [method, path] of ENDPOINTS) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      for (const name of path.match(/\{(\w+)\}/g) ?? []) {
        expect(op?.parameters?.some((p) => p.in === 'path' && `{${p.name}}` === name)).toBe(true);
      }
    }
    expect(Object.keys(doc.paths)).toHaveLength(ENDPOINTS.length);
  });

  it('carries the limits and enums of the schemas, and the three security schemes', () => {
    type Schema = {
      properties: Record<string, { maxLength?: number; enum?: string[] }>;
      additionalProperties?: unknown;
    };
    const doc = buildOpenApiDocument() as {
      components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
      webhooks: Record<string, unknown>;
    };
    const request = doc.components.schemas.ValidationRequest as Schema;
    expect(request.properties.companyName?.maxLength).toBe(256);
    // The raw cap (before separators are stripped) is a wire rule, so the document carries it.
    expect(request.properties.rawValue?.maxLength).toBe(64);
    expect(request.properties.requesterVatId?.maxLength).toBe(64);
    expect(request.properties.preferredProvider?.enum).toEqual([
      'VIES',
      'BZST',
      'HMRC',
      'SWISS_UID',
      'BRREG',
      'ABR',
      'NZBN',
    ]);
    expect(request.additionalProperties).toBe(false);
    expect(doc.components.securitySchemes.svcAuthorization).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'svc-authorization',
    });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.webhooks)).toHaveLength(3);
  });

  it('derives the audit query parameters from the query schema the client and the server use', () => {
    type Parameter = { name: string; in: string; required: boolean; schema: Record<string, unknown> };
    const doc = buildOpenApiDocument() as {
      paths: Record<string, { get: { parameters: Parameter[] } }>;
    };
    const params = doc.paths['/platform/v1/events']?.get.parameters ?? [];
    const byName = Object.fromEntries(params.map((p) => [p.name, p]));
    expect(params.map((p) => p.name)).toEqual(Object.keys(AuditEventsQuerySchema().shape));
    expect(params.every((p) => p.in === 'query' && p.required === false)).toBe(true);
    expect(byName.pageSize?.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
    });
    expect([MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE]).toEqual([1000, 100]);
    expect(byName.page?.schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(byName.from?.schema).toMatchObject({ type: 'string', format: 'date-time' });
    expect(byName.to?.schema).toMatchObject({ type: 'string', format: 'date-time' });
    expect(byName.cursor?.schema).toMatchObject({ type: 'string', minLength: 1 });
    // The defaults the document states are the ones the schema applies.
    expect(AuditEventsQuerySchema().parse({})).toEqual({
      pageSize: byName.pageSize?.schema.default,
      page: 0,
    });
  });

  it('svc openapi --admin prints the admin API of the reference server as a second document', async () => {
    const run = await runSvc(['openapi', '--admin']);
    expect(run.code).toBe(0);
    const admin = JSON.parse(run.stdout) as { paths: Record<string, unknown>; info: { description: string } };
    expect(Object.keys(admin.paths).every((p) => p.startsWith('/__admin/'))).toBe(true);
    expect(Object.keys(admin.paths)).toContain('/__admin/verifications');
    expect(admin.info.description).toMatch(/Reference server only/);
    // The service document never lists an admin route.
    expect(
      Object.keys((buildOpenApiDocument() as { paths: object }).paths).some((p) => p.startsWith('/__admin')),
    ).toBe(false);
  });

  it('svc openapi prints the same document', async () => {
    const run = await runSvc(['openapi']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });
});
