/** One example per operation: requests and answers as the reference server gives them. */

const RESULT_ID = 'valres_3f0e8a52-6d0c-4d57-9d2f-1c2b3a4d5e6f';
const REQUEST_ID = 'valreq_9b1d2c3e-4f50-4a6b-8c7d-0e1f2a3b4c5d';

export const validationRequestExample = {
  countryCode: 'DE',
  rawValue: 'DE 136 695 976',
  companyName: 'Example GmbH',
  customerMetadata: { customer_id: 'c-4711' },
  idempotencyKey: '5b8e2f43-1c8e-4b7a-9f3e-2d6c1a0b9e87',
  correlationId: 'order-4711',
};

export const validationResultExample = {
  validationRequestId: REQUEST_ID,
  validationResultId: RESULT_ID,
  taxIdentifierId: 'taxid_0c1d2e3f4a5b6c7d8e9f',
  status: 'COMPLETED',
  outcome: 'VALID',
  provider: 'VIES',
  providerStatus: 'SUCCESS',
  verificationMethod: 'AUTOMATIC',
  match: { companyName: 'MATCH', address: 'NOT_REQUESTED' },
  responseData: { companyName: 'Example GmbH', sourceReference: 'WAPIAAAAZ1b2c3d4' },
  checkedAt: '2026-03-01T10:15:30.123Z',
  correlationId: 'order-4711',
  customerMetadata: { customer_id: 'c-4711' },
  createdAt: '2026-03-01T10:15:30.120Z',
  completedAt: '2026-03-01T10:15:30.123Z',
};

export const pendingValidationExample = {
  validationRequestId: REQUEST_ID,
  status: 'PENDING',
  correlationId: 'order-4711',
  idempotencyKey: '5b8e2f43-1c8e-4b7a-9f3e-2d6c1a0b9e87',
};

export const batchRequestExample = {
  items: [
    { countryCode: 'DE', rawValue: '136695976', idempotencyKey: 'run-1-row-1' },
    { countryCode: 'GB', rawValue: 'GB 980 7806 84', idempotencyKey: 'run-1-row-2' },
  ],
};

export const batchAcceptedExample = {
  items: [
    { index: 0, validationRequestId: REQUEST_ID, status: 'PENDING', idempotencyKey: 'run-1-row-1' },
    {
      index: 1,
      validationRequestId: 'valreq_1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      status: 'PENDING',
      idempotencyKey: 'run-1-row-2',
      validationResultId: RESULT_ID,
      replay: true,
    },
  ],
};

export const scheduleRequestExample = { countryCode: 'DE', rawValue: '136695976', frequency: 'QUARTERLY' };

export const scheduleCreatedExample = {
  scheduleId: 'sched_7c6b5a49-3827-4165-a0b9-c8d7e6f5a4b3',
  nextRunAt: '2026-06-01T10:15:30.123Z',
};

export const auditPageExample = {
  from: '2026-02-28T10:15:30.123Z',
  to: '2026-03-01T10:15:30.123Z',
  content: [
    {
      id: 'evt_01HQ8Z6W5N4M3K2J1H0G9F8E7D',
      schemaVersion: 2,
      occurredAt: '2026-03-01T09:59:12.345Z',
      type: 'captcha.captcha.updated',
      action: 'updated',
      subject: { kind: 'captcha.captcha', id: '5f0c7c1e-8a4b-4f1e-9d2a-0d3c6b7a8e91', label: 'Contact form' },
      scopes: [{ kind: 'platform.subscription', id: 'demo', label: 'Demo project' }],
      origin: {
        namespace: 'CAPTCHA',
        source: 'REST_CONTROLLER',
        applicationName: 'captcha-service',
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        transactionId: 'tx-2f1e0d',
      },
      actor: { type: 'API_KEY', apiKeyId: 'key_2d1c0b' },
      changes: [
        { field: 'name', operation: 'SET', before: 'Contact', after: 'Contact form', isRedacted: false },
      ],
      details: {},
    },
  ],
  page: 0,
  pageSize: 100,
  totalElements: 1,
  nextCursor: null,
};

export const verificationResultExample = {
  captchaId: '5f0c7c1e-8a4b-4f1e-9d2a-0d3c6b7a8e91',
  verificationId: '0b8f3c52-7d1e-4f6a-9b2c-3d4e5f6a7b8c',
  verificationPassed: true,
  score: 0.12,
  decisionType: 'STANDARD',
  decisionAction: 'NO_ACTION',
  gatewayFailoverActive: false,
  riskScoringEnabled: true,
  minimalDataModeEnabled: false,
  origin: 'https://www.example.com/contact',
  ipAddress: '203.0.113.24',
  countryCode: 'DE',
  deviceFamily: 'Desktop',
  operatingSystem: 'Windows 11',
  browser: 'Firefox 128.0',
  verificationStartedAt: '2026-03-01T10:15:28.001Z',
  verificationFinishedAt: '2026-03-01T10:15:30.123Z',
  resultExpiresAt: '2026-03-01T10:30:30.123Z',
  resultFirstFetchedAt: '2026-03-01T10:15:31.500Z',
  resultLastFetchedAt: '2026-03-01T10:15:31.500Z',
};

export const legacyAssessmentExample = {
  captchaId: '5f0c7c1e-8a4b-4f1e-9d2a-0d3c6b7a8e91',
  verificationId: '0b8f3c52-7d1e-4f6a-9b2c-3d4e5f6a7b8c',
  verificationPassed: true,
  score: 0.12,
  reason: 'CALCULATED',
  mode: 'STANDARD',
  origin: 'https://www.example.com/contact',
  ipAddress: '203.0.113.24',
  deviceFamily: 'Desktop',
  operatingSystem: 'Windows 11',
  browser: 'Firefox 128.0',
  creationTimestamp: '2026-03-01T10:15:28.001',
  releaseTimestamp: '2026-03-01T10:15:30.123',
  retrievalTimestamp: '2026-03-01T10:15:31.500',
};

export const completedEventExample = {
  eventType: 'taxvalidation.validation.completed',
  occurredAt: '2026-03-01T10:15:30.123Z',
  taxValidatorId: 'demo',
  validationResultId: RESULT_ID,
  outcome: 'VALID',
  provider: 'VIES',
  providerStatus: 'SUCCESS',
};

export const invalidEventExample = {
  ...completedEventExample,
  eventType: 'taxvalidation.validation.invalid',
  outcome: 'INVALID',
};

export const manualReviewEventExample = {
  eventType: 'taxvalidation.validation.manual-review-required',
  occurredAt: '2026-03-01T10:15:30.123Z',
  taxValidatorId: 'demo',
  validationRequestId: REQUEST_ID,
  status: 'PENDING',
};

/** An example problem document for a status. */
export function problemExample(status: number, title: string, detail: string, type?: string) {
  return {
    type: type ?? `https://svc.invalid/problems/${status}`,
    title,
    status,
    detail,
    ...(status === 422 && {
      errors: [{ path: 'countryCode', message: 'must be a 2-letter ISO country code in upper case' }],
    }),
  };
}
