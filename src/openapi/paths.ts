import { AuditEventsQuerySchema } from '../audit/query.js';
import { TEST_VERIFICATION_IDS } from '../botcheck/test-ids.js';
import * as ex from './examples.js';
import { queryParameters } from './parameters.js';
import { bodyErrors, COMMON_ERRORS, empty, json, problems, TAX_AUTH_ERRORS } from './responses.js';

const TAX = '/taxvalidation/v1';
const bearer = [{ bearerAuth: [] }];
const idParam = (name: string, description: string, example: string, format?: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', minLength: 1, ...(format && { format }) },
  example,
});
const body = (schema: string, description: string, example: unknown) => ({
  required: true,
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` }, example } },
});

/** A 200/201 answer of `POST /validations` always carries a completed result. */
const completedResult = {
  allOf: [
    { $ref: '#/components/schemas/ValidationResult' },
    {
      type: 'object',
      properties: { status: { const: 'COMPLETED', description: 'Always COMPLETED in a 200 or 201 answer' } },
    },
  ],
};

/** The endpoints of the four APIs, with the path parameter names of the reference. */
export function paths(): Record<string, unknown> {
  return {
    [`${TAX}/validations`]: {
      post: {
        operationId: 'createValidation',
        tags: ['tax validation'],
        summary: 'Validate one tax ID',
        description:
          'Checks a business or VAT identifier against the registry of its country. Always automatic; a failed check may still go to manual review per the project settings. A completed check answers 201 (200 for an idempotent replay); an asynchronous one 202, with the result following as the webhook taxvalidation.validation.completed.',
        security: bearer,
        requestBody: body(
          'ValidationRequest',
          'The identifier to check and the optional matching fields',
          ex.validationRequestExample,
        ),
        responses: {
          200: json(
            'Idempotent replay: this idempotencyKey was already processed with this body; the first result, not processed again',
            completedResult,
            ex.validationResultExample,
          ),
          201: json('Completed synchronously: the full result', completedResult, ex.validationResultExample),
          202: json('Accepted for asynchronous processing', 'PendingValidation', ex.pendingValidationExample),
          ...problems({
            ...bodyErrors('4 MiB'),
            ...TAX_AUTH_ERRORS,
            409: 'idempotencyKey reused with another body',
            422: 'invalid input (malformed country code, value too long, bad metadata, a provider that cannot serve the country); errors[] names every field',
            ...COMMON_ERRORS,
          }),
        },
      },
    },
    [`${TAX}/validations/batch`]: {
      post: {
        operationId: 'createValidationBatch',
        tags: ['tax validation'],
        summary: 'Validate many tax IDs (asynchronous)',
        description:
          'Accepts up to 1000 items, each in the shape of a single validation request. Every entry of the answer is PENDING; results arrive as webhooks. A replayed item (same idempotencyKey and body) is listed PENDING too, with `replay: true` and, once completed, its `validationResultId`.',
        security: bearer,
        requestBody: body(
          'BatchRequest',
          'The items, in the order the answer lists them',
          ex.batchRequestExample,
        ),
        responses: {
          202: json('One PENDING entry per item, in input order', 'BatchAccepted', ex.batchAcceptedExample),
          ...problems({
            ...bodyErrors('16 MiB'),
            ...TAX_AUTH_ERRORS,
            409: 'an item idempotencyKey reused with another body',
            422: 'an item is structurally invalid; nothing is processed; errors[] names every failing item path',
            ...COMMON_ERRORS,
          }),
        },
      },
    },
    [`${TAX}/schedules`]: {
      post: {
        operationId: 'createSchedule',
        tags: ['tax validation'],
        summary: 'Put a tax ID on a recurring schedule',
        description:
          'Checks the identifier again every 1, 3 or 12 calendar months. Needs the scheduled-validation feature of the plan. Not idempotent: a retried request can create a second schedule.',
        security: bearer,
        requestBody: body('ScheduleRequest', 'The identifier and its frequency', ex.scheduleRequestExample),
        responses: {
          201: json(
            'Created; nextRunAt is 1, 3 or 12 calendar months ahead',
            'ScheduleCreated',
            ex.scheduleCreatedExample,
          ),
          ...problems({
            ...bodyErrors('4 MiB'),
            ...TAX_AUTH_ERRORS,
            402: 'project locked, the plan lacks scheduled validation, or a plan limit is reached',
            422: 'invalid input; errors[] names every field',
            ...COMMON_ERRORS,
          }),
        },
      },
    },
    [`${TAX}/schedules/{scheduleId}`]: {
      delete: {
        operationId: 'deleteSchedule',
        tags: ['tax validation'],
        summary: 'Delete a schedule',
        description: 'Removes a schedule of the project. Deleting it again answers 404.',
        security: bearer,
        parameters: [
          idParam(
            'scheduleId',
            'Id from the creation response',
            'sched_7c6b5a49-3827-4165-a0b9-c8d7e6f5a4b3',
          ),
        ],
        responses: {
          204: empty('Deleted'),
          ...problems({
            ...TAX_AUTH_ERRORS,
            404: 'no schedule with this id in the project',
            ...COMMON_ERRORS,
          }),
        },
      },
    },
    [`${TAX}/validation-results/{validationResultId}`]: {
      get: {
        operationId: 'getValidationResult',
        tags: ['tax validation'],
        summary: 'Fetch a stored result',
        description: 'The full result of a completed validation of the project, with the echo of its input.',
        security: bearer,
        parameters: [
          idParam(
            'validationResultId',
            'Id of the result (from a 201 answer or a webhook)',
            'valres_3f0e8a52-6d0c-4d57-9d2f-1c2b3a4d5e6f',
          ),
        ],
        responses: {
          200: json(
            'The full result: input echo, outcome, provider, match, registry data, timestamps',
            'ValidationResult',
            ex.validationResultExample,
          ),
          ...problems({ ...TAX_AUTH_ERRORS, 404: 'no result with this id in the project', ...COMMON_ERRORS }),
        },
      },
    },
    '/platform/v1/events': {
      get: {
        operationId: 'listAuditEvents',
        tags: ['audit log'],
        summary: 'Read audit events, newest first',
        description:
          "One page of the audit events of the key's project (with its modules) or agency (without its client projects). For the next page pass `nextCursor` as `cursor` with the same `from` and `to` until it is null; a cursor does not shift when events arrive, `page` can. Events older than the plan's retention are not returned. `pageSize` above 1000 is refused with 422, like 0.",
        security: bearer,
        parameters: queryParameters(AuditEventsQuerySchema()),
        responses: {
          200: json('One page; nextCursor is null on the last page', 'AuditEventPage', ex.auditPageExample),
          ...problems({
            401: 'no API key sent',
            402: 'plan lacks the audit log API, or project locked',
            403: 'unknown or expired API key, or a key of another kind',
            422: 'from or to not ISO 8601, from after to, pageSize or page out of range, or a cursor not returned by this API for this key and range',
            ...COMMON_ERRORS,
          }),
        },
      },
    },
    '/captcha/v2/verifications/{verificationId}/results': {
      get: {
        operationId: 'getVerificationResult',
        tags: ['bot check'],
        summary: 'Fetch the result of one verification (consumes a fetch)',
        description: `Retrievable for 15 minutes after the verification and, by default, exactly once (both configurable per captcha environment). Test ids: ${TEST_VERIFICATION_IDS.passed} answers 200 with the test key (\`ak_\` and 49 \`x\`), ...0001 404, ...0002 423, ...0003 410, ...0004 429.`,
        security: bearer,
        parameters: [
          idParam(
            'verificationId',
            'UUID from the verification token: the `verificationId` key of the Base64 JSON the widget puts in the hidden input `svc-verification-token`',
            ex.verificationResultExample.verificationId,
            'uuid',
          ),
        ],
        responses: {
          200: json('Result returned', 'VerificationResult', ex.verificationResultExample),
          ...problems({
            402: 'project locked',
            403: 'Authorization header missing, or API key invalid',
            404: 'unknown verificationId',
            410: 'result expired',
            423: 'result not yet released; the verification has not finished',
            429: 'allowed fetch count exceeded; already retrieved',
            ...COMMON_ERRORS,
          }),
        },
      },
    },
    '/verifications/{verificationId}/assessments': {
      get: {
        operationId: 'getLegacyAssessment',
        tags: ['bot check (legacy)'],
        summary: 'Fetch the result of one verification, legacy API',
        description:
          "The older result call of v1/v2 widget clients. Send `Content-Type: application/json` and the captcha's API key (or deprecated secret key) in `svc-authorization`; the oldest versions send an access token as the `accessToken` query parameter instead. A result already fetched or expired answers 410.",
        security: [{ svcAuthorization: [] }, { legacyAccessToken: [] }],
        parameters: [
          idParam(
            'verificationId',
            'Id from the verification token; must be a UUID',
            ex.legacyAssessmentExample.verificationId,
            'uuid',
          ),
          {
            name: 'Content-Type',
            in: 'header',
            required: true,
            description: 'Required by the legacy API even though the request has no body',
            schema: { type: 'string', const: 'application/json' },
          },
        ],
        responses: {
          200: json('Result returned', 'LegacyAssessment', ex.legacyAssessmentExample),
          ...problems({
            400: 'verificationId is not a UUID, or the access token does not match the format',
            402: 'project locked',
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

/** Webhook events (OpenAPI 3.1 `webhooks`): sent by the service to the project's endpoint, unsigned. */
export function webhooks(): Record<string, unknown> {
  const event = (operationId: string, summary: string, schema: string, example: unknown) => ({
    post: {
      operationId,
      tags: ['tax validation webhooks'],
      summary,
      description:
        'Sent as a POST to the webhook endpoint configured for the project. Signing is not documented: confirm an event by fetching its result from the API.',
      security: [],
      requestBody: {
        required: true,
        description: 'The event',
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` }, example } },
      },
      responses: {
        200: { description: 'Received; any 2xx answer counts as delivered' },
        400: { description: 'The receiver refused the payload; the service retries on its backoff schedule' },
      },
    },
  });
  return {
    'taxvalidation.validation.completed': event(
      'onValidationCompleted',
      'Any check completes (automatic, manual review, or recorded)',
      'ValidationCompletedEvent',
      ex.completedEventExample,
    ),
    'taxvalidation.validation.invalid': event(
      'onValidationInvalid',
      'Additionally, when the outcome is INVALID',
      'ValidationCompletedEvent',
      ex.invalidEventExample,
    ),
    'taxvalidation.validation.manual-review-required': event(
      'onManualReviewRequired',
      'A check enters the manual review queue',
      'ManualReviewRequiredEvent',
      ex.manualReviewEventExample,
    ),
  };
}
