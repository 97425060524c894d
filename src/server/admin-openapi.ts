import * as z from 'zod/mini';
import { AuditEventSchema } from '../audit/schemas.js';
import { ProblemDetailsSchema } from '../core/problem-schema.js';
import { closeOpenEnums } from '../openapi/components.js';
import { VERSION } from '../version.js';
import { ClockBody, FaultsBody, RateLimitBody } from './admin-core.js';
import { ADMIN_FIELDS } from './admin-fields.js';
import { EventsBody, GenerateBody } from './audit/admin.js';
import { AuditStreamBody, StreamFaultsBody } from './audit/stream-config.js';
import { CreateVerificationBody } from './botcheck/store.js';
import { ProviderModeBody, WebhookEndpointBody } from './tax/admin.js';

const NAMED: ReadonlyArray<[string, z.core.$ZodType, string]> = [
  ['ClockAdvance', ClockBody.def.options[0], 'Move the clock forward'],
  ['ClockSet', ClockBody.def.options[1], 'Set the clock'],
  ['ClockFreeze', ClockBody.def.options[2], 'Freeze or resume the clock'],
  ['Faults', FaultsBody, 'Fault injection settings'],
  ['RateLimit', RateLimitBody, 'Rate limiter settings'],
  ['CreateVerification', CreateVerificationBody, 'A verification of the demo captcha to create'],
  ['ProviderMode', ProviderModeBody, 'How a registry answers'],
  ['WebhookEndpoint', WebhookEndpointBody, 'A webhook endpoint'],
  ['GenerateAuditEvents', GenerateBody, 'Generate audit events'],
  ['AddAuditEvents', EventsBody, 'Store audit events as given'],
  ['AuditStreamFaults', StreamFaultsBody, 'Faults of an audit stream'],
  ['AuditStream', AuditStreamBody, 'An audit stream: where and how to push audit events'],
  ['AuditEvent', AuditEventSchema(), 'One audit event'],
  ['Problem', ProblemDetailsSchema(), 'RFC 9457 problem document'],
];

function schemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string; description: string }>();
  for (const [id, schema, description] of NAMED) registry.add(schema, { id, description });
  const { schemas: out } = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
    io: 'input',
    override: closeOpenEnums,
  }) as { schemas: Record<string, Record<string, unknown>> };
  const result: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(out)) {
    const { $schema: _s, $id: _i, ...rest } = schema;
    const properties = rest.properties as Record<string, Record<string, unknown>> | undefined;
    for (const [name, description] of Object.entries(ADMIN_FIELDS[id] ?? {})) {
      const property = properties?.[name];
      if (property && property.description === undefined) property.description = description;
    }
    result[id] = rest;
  }
  return result;
}

const streamIdParameter = {
  name: 'streamId',
  in: 'path',
  required: true,
  description: 'Id from createAuditStream',
  schema: { type: 'string' },
};
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const anyJson = (description: string) => ({
  description,
  content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
});
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});
const body = (schema: unknown, example: unknown) => ({
  required: true,
  description: 'The settings (JSON; `Content-Type: application/json` is required)',
  content: { 'application/json': { schema, example } },
});

function op(
  operationId: string,
  summary: string,
  description: string,
  responses: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    operationId,
    tags: ['admin'],
    summary,
    description,
    security: [],
    ...extra,
    responses: { ...responses, 403: problem('Forbidden: not loopback, a foreign Origin, or a foreign Host') },
  };
}

/**
 * The OpenAPI 3.1 document of the reference server's admin API (`/__admin`, no key, loopback
 * only). It exists on the reference server only, never on the service: a second document, so a
 * generated client of the service never sees it.
 */
export function buildAdminOpenApiDocument(): Record<string, unknown> {
  const invalid = { 422: problem('Invalid admin request; errors[] names every field') };
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc-sdk reference server: admin API',
      version: VERSION,
      description:
        'Test and development controls of the in-memory reference server (`svc serve`, `createReferenceServer`). Reference server only: the service has no such API. No key; served on loopback only; mutations need `Content-Type: application/json`.',
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [
      {
        url: '{base_url}',
        variables: {
          base_url: { default: 'http://127.0.0.1:4010', description: 'Reference server base URL' },
        },
      },
    ],
    tags: [{ name: 'admin', description: 'Reference server only: state, clock, faults and test data' }],
    paths: {
      '/__admin/reset': {
        post: op('reset', 'Restore the fixture', 'Forgets everything stored since the start.', {
          204: { description: 'Reset' },
        }),
      },
      '/__admin/clock': {
        post: op(
          'setClock',
          'Move, set or freeze the server clock',
          'The audit log, schedules and result expiry follow this clock.',
          { 200: anyJson('The new server time as `{now}`'), ...invalid },
          {
            requestBody: body(
              { anyOf: [ref('ClockAdvance'), ref('ClockSet'), ref('ClockFreeze')] },
              { advanceMs: 60000 },
            ),
          },
        ),
      },
      '/__admin/faults': {
        post: op(
          'setFaults',
          'Inject failures into API requests',
          'A share of API requests (not admin ones) fails in the chosen ways, from a seeded sequence.',
          { 200: anyJson('The faults in force as `{faults}`'), ...invalid },
          { requestBody: body(ref('Faults'), { rate: 0.2, kinds: ['status503', 'reset'], seed: 7 }) },
        ),
      },
      '/__admin/rate-limit': {
        post: op(
          'setRateLimit',
          'Limit the rate of API requests',
          'A token bucket over API requests (not admin ones), measured in real time: past it each request is answered 429 with a problem body, with or without Retry-After. perSecond 0 switches it off; so does reset.',
          { 200: anyJson('The limiter in force as `{rateLimit}`'), ...invalid },
          { requestBody: body(ref('RateLimit'), { perSecond: 2, retryAfter: false }) },
        ),
      },
      '/__admin/stats': {
        get: op(
          'getStats',
          'Counters',
          'Requests by route, validations processed, idempotent replays, webhooks sent, faults injected, requests rate-limited.',
          {
            200: anyJson('The counters'),
          },
        ),
      },
      '/__admin/requests': {
        get: op('listRequests', 'The request log', 'The latest API requests, keys redacted.', {
          200: anyJson('`{requests}`'),
        }),
      },
      '/__admin/verifications': {
        post: op(
          'createVerification',
          'Create a verification of the demo captcha',
          'Returns its id, a verification token and a legacy access token.',
          { 201: anyJson('`{verificationId, token, accessToken}`'), ...invalid },
          { requestBody: body(ref('CreateVerification'), { passed: true, score: 0.3 }) },
        ),
      },
      '/__admin/verifications/{verificationId}/finish': {
        post: op(
          'finishVerification',
          'Finish a verification',
          'Its result becomes retrievable; the validity period starts now.',
          { 200: anyJson('`{verificationId, finishedAt}`'), 404: problem('Unknown verification') },
          {
            parameters: [
              {
                name: 'verificationId',
                in: 'path',
                required: true,
                description: 'Id from createVerification',
                schema: { type: 'string', format: 'uuid' },
              },
            ],
          },
        ),
      },
      '/__admin/audit-events': {
        post: op(
          'addAuditEvents',
          'Add audit events',
          'Generates `count` events deterministically over a range, or stores `events` as given.',
          {
            201: anyJson('What was added: count, owner, newest and oldest id, range'),
            409: problem('An event id exists'),
            ...invalid,
          },
          {
            requestBody: body(
              { anyOf: [ref('GenerateAuditEvents'), ref('AddAuditEvents')] },
              { count: 100, scope: 'project' },
            ),
          },
        ),
      },
      '/__admin/audit-streams': {
        get: op(
          'listAuditStreams',
          'Audit streams',
          'Each stream with its counters: recorded, pushed, delivered, batchesDelivered, attempts, failedAttempts, dropped, duplicated, queued; never its secret.',
          { 200: anyJson('`{streams}`') },
        ),
        post: op(
          'createAuditStream',
          'Push audit events to a URL',
          'Every audit event recorded for the owner from now on is pushed at least once, unordered: batched (single, array, ndjson), gzip or not, signed per Standard Webhooks (`webhook-id`, the same on retries; `webhook-timestamp`; `webhook-signature: v1,...` over the body as sent, the gzip bytes when gzipped). An answer other than 2xx, a refused connection or no answer in 10 s is retried after 0.5 s, doubling to 30 s, for as long as the stream exists.',
          {
            201: anyJson(
              'The stream: `{streamId, url, format, gzip, batchSize, scope, ownerId, faults, createdAt, counters}`',
            ),
            409: problem('Too many streams'),
            ...invalid,
          },
          {
            requestBody: body(ref('AuditStream'), {
              url: 'http://127.0.0.1:8787/audit',
              format: 'ndjson',
              secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
            }),
          },
        ),
      },
      '/__admin/audit-streams/{streamId}': {
        delete: op(
          'deleteAuditStream',
          'Stop an audit stream',
          'What it had not delivered is never sent.',
          { 200: anyJson('The stream as it ended'), 404: problem('Unknown stream') },
          { parameters: [streamIdParameter] },
        ),
      },
      '/__admin/audit-streams/{streamId}/flush': {
        post: op(
          'flushAuditStream',
          'Wait until an audit stream is flushed',
          'Answers once every event recorded so far was delivered or dropped, or at `timeoutMs`.',
          {
            200: anyJson('`{flushed, stream}`: whether it is flushed, and its counters'),
            404: problem('Unknown stream'),
            ...invalid,
          },
          {
            parameters: [
              streamIdParameter,
              {
                name: 'timeoutMs',
                in: 'query',
                required: false,
                description: 'Longest wait, ms; default 30000',
                schema: { type: 'integer', minimum: 0, maximum: 600000 },
              },
            ],
          },
        ),
      },
      '/__admin/providers/{provider}': {
        post: op(
          'setProviderMode',
          'Set how a registry answers',
          'sync, async or unavailable.',
          { 200: anyJson('`{provider, mode}`'), 404: problem('Unknown provider'), ...invalid },
          {
            parameters: [
              {
                name: 'provider',
                in: 'path',
                required: true,
                description: 'The registry',
                schema: {
                  type: 'string',
                  enum: ['VIES', 'BZST', 'HMRC', 'SWISS_UID', 'BRREG', 'ABR', 'NZBN'],
                },
              },
            ],
            requestBody: body(ref('ProviderMode'), { mode: 'async' }),
          },
        ),
      },
      '/__admin/webhook-endpoints': {
        get: op('listWebhookEndpoints', 'Webhook endpoints', 'The URLs that receive every webhook event.', {
          200: anyJson('`{endpoints}`'),
        }),
        post: op(
          'addWebhookEndpoint',
          'Register a webhook endpoint',
          'The URL receives every webhook event from now on.',
          { 201: anyJson('`{url, endpoints}`'), ...invalid },
          { requestBody: body(ref('WebhookEndpoint'), { url: 'http://127.0.0.1:8080/hooks' }) },
        ),
        delete: op(
          'removeWebhookEndpoint',
          'Unregister a webhook endpoint',
          'Names the URL as `?url=` (or in a `{url}` body).',
          { 200: anyJson('`{url, endpoints}`'), 404: problem('Not registered'), ...invalid },
          {
            parameters: [
              {
                name: 'url',
                in: 'query',
                required: false,
                description: 'The registered URL',
                schema: { type: 'string', format: 'uri' },
              },
            ],
          },
        ),
      },
    },
    components: { schemas: schemas() },
  };
}
