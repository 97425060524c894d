import { AuditEventsQuery } from '../audit/query.js';
import { queryParameters } from './parameters.js';
import { json, problems, TAX_AUTH_ERRORS } from './responses.js';

const TAX = '/taxvalidation/v1';
const bearer = [{ bearerAuth: [] }];
const idParam = (name: string, description: string, format?: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', ...(format && { format }) },
});

/** The endpoints of the four APIs, with the path parameter names of the reference. */
export function paths(): Record<string, unknown> {
  return {
    [`${TAX}/validations`]: {
      post: {
        operationId: 'createValidation',
        tags: ['tax validation'],
        summary: 'Validate one tax ID',
        security: bearer,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationRequest' } } },
        },
        responses: {
          200: json('Idempotent replay: this idempotencyKey was already processed', 'ValidationResult'),
          201: json('Completed synchronously', 'ValidationResult'),
          202: json('Accepted for asynchronous processing', 'PendingValidation'),
          ...problems({
            ...TAX_AUTH_ERRORS,
            409: 'idempotencyKey reused with another body',
            422: 'invalid input; errors[] names every field',
          }),
        },
      },
    },
    [`${TAX}/validations/batch`]: {
      post: {
        operationId: 'createValidationBatch',
        tags: ['tax validation'],
        summary: 'Validate many tax IDs (asynchronous)',
        security: bearer,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchRequest' } } },
        },
        responses: {
          202: json('One PENDING entry per item, in input order', 'BatchAccepted'),
          ...problems({
            ...TAX_AUTH_ERRORS,
            409: 'an item idempotencyKey reused with another body',
            422: 'an item is structurally invalid; nothing is processed',
          }),
        },
      },
    },
    [`${TAX}/schedules`]: {
      post: {
        operationId: 'createSchedule',
        tags: ['tax validation'],
        summary: 'Put a tax ID on a recurring schedule',
        security: bearer,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ScheduleRequest' } } },
        },
        responses: {
          201: json('Created; nextRunAt is 1, 3 or 12 calendar months ahead', 'ScheduleCreated'),
          ...problems({
            ...TAX_AUTH_ERRORS,
            402: 'the plan lacks scheduled validation, or a plan limit is reached',
            422: 'invalid input',
          }),
        },
      },
    },
    [`${TAX}/schedules/{scheduleId}`]: {
      delete: {
        operationId: 'deleteSchedule',
        tags: ['tax validation'],
        summary: 'Delete a schedule',
        security: bearer,
        parameters: [idParam('scheduleId', 'Id from the creation response')],
        responses: {
          204: { description: 'Deleted' },
          ...problems({ 401: 'API key missing', 403: 'API key invalid', 404: 'not found' }),
        },
      },
    },
    [`${TAX}/validation-results/{validationResultId}`]: {
      get: {
        operationId: 'getValidationResult',
        tags: ['tax validation'],
        summary: 'Fetch a stored result',
        security: bearer,
        parameters: [idParam('validationResultId', 'Id of the result')],
        responses: {
          200: json(
            'The full result: input echo, outcome, provider, match, registry data, timestamps',
            'ValidationResult',
          ),
          ...problems({ 401: 'API key missing', 403: 'API key invalid', 404: 'not found' }),
        },
      },
    },
    '/platform/v1/events': {
      get: {
        operationId: 'listAuditEvents',
        tags: ['audit log'],
        summary: 'Read audit events, newest first',
        security: bearer,
        parameters: queryParameters(AuditEventsQuery),
        responses: {
          200: json('One page; nextCursor is null on the last page', 'AuditEventPage'),
          ...problems({
            401: 'no API key sent',
            402: 'plan lacks the audit log API, or project locked',
            403: 'unknown or expired API key',
            422: 'from or to not ISO 8601, from after to, or a cursor not returned by this API',
          }),
        },
      },
    },
    '/captcha/v2/verifications/{verificationId}/results': {
      get: {
        operationId: 'getVerificationResult',
        tags: ['bot check'],
        summary: 'Fetch the result of one verification (consumes a fetch)',
        security: bearer,
        parameters: [idParam('verificationId', 'UUID from the verification token', 'uuid')],
        responses: {
          200: json('Result returned', 'VerificationResult'),
          ...problems({
            402: 'project locked',
            403: 'Authorization header missing, or API key invalid',
            404: 'unknown verificationId',
            410: 'result expired',
            423: 'result not yet released; the verification has not finished',
            429: 'allowed fetch count exceeded; already retrieved',
          }),
        },
      },
    },
    '/verifications/{verificationId}/assessments': {
      get: {
        operationId: 'getLegacyAssessment',
        tags: ['bot check (legacy)'],
        summary: 'Fetch the result of one verification, legacy API',
        security: [{ svcAuthorization: [] }, { legacyAccessToken: [] }],
        parameters: [
          idParam('verificationId', 'Id from the verification token; must be a UUID', 'uuid'),
          {
            name: 'Content-Type',
            in: 'header',
            required: true,
            schema: { type: 'string', const: 'application/json' },
          },
        ],
        responses: {
          200: json('Result returned', 'LegacyAssessment'),
          ...problems({
            400: 'verificationId is not a UUID, or the access token does not match the format',
            403: 'API key missing or invalid',
            404: 'verification does not exist (it may have been retrieved earlier and deleted)',
            410: 'result already retrieved or expired; the captcha must be solved again',
            422: 'captcha mode of the widget differs from the captcha settings',
            423: 'result not yet released',
            500: 'internal error',
          }),
        },
      },
    },
  };
}

/** Webhook events (OpenAPI 3.1 `webhooks`). */
export function webhooks(): Record<string, unknown> {
  const event = (summary: string, schema: string) => ({
    post: {
      summary,
      requestBody: {
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
      },
      responses: { 200: { description: 'Received' } },
    },
  });
  return {
    'taxvalidation.validation.completed': event(
      'Any check completes (automatic, manual review, or recorded)',
      'ValidationCompletedEvent',
    ),
    'taxvalidation.validation.invalid': event(
      'Additionally, when the outcome is INVALID',
      'ValidationCompletedEvent',
    ),
    'taxvalidation.validation.manual-review-required': event(
      'A check enters the manual review queue',
      'ManualReviewRequiredEvent',
    ),
  };
}
