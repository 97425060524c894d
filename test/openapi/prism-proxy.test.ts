import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import type { ReferenceServer } from '../../src/server/index.js';
import { type RunningPrism, startPrism, useDocumentFile } from '../helpers/openapi-tools.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const { file } = useDocumentFile();
let prism: RunningPrism;
beforeAll(async () => {
  prism = await startPrism(['proxy', file, server().url, '--errors']);
}, 180_000);
afterAll(async () => {
  await prism?.stop();
});

const TAX = '/taxvalidation/v1';
const DEMO = 'ak_demo_project';

interface Exchange {
  status: number;
  violations: string | null;
  requestId: string | null;
  body: unknown;
}

/** One request through Prism: bearer or svc-authorization key, JSON body. */
async function send(
  method: string,
  path: string,
  init: { key?: string; legacy?: boolean; body?: unknown } = {},
): Promise<Exchange> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined || init.legacy) headers['content-type'] = 'application/json';
  if (init.key) {
    if (init.legacy) headers['svc-authorization'] = init.key;
    else headers.authorization = `Bearer ${init.key}`;
  }
  const res = await fetch(prism.url + path, {
    method,
    headers,
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return {
    status: res.status,
    violations: res.headers.get('sl-violations'),
    requestId: res.headers.get('request-id'),
    body: text ? JSON.parse(text) : undefined,
  };
}

/** Makes the next API request fail with a 500 from the reference server (fault injection). */
function failNext(s: ReferenceServer): void {
  s.admin.setFaults({ rate: 1, kinds: ['status500'], seed: 1 });
}

type Case = [operation: string, status: number, run: (s: ReferenceServer) => Promise<Exchange>];
const v = { countryCode: 'DE', rawValue: '136695976' };
const schedule = { ...v, frequency: 'MONTHLY' };
const verification = (s: ReferenceServer, input = {}) => s.admin.createVerification(input).verificationId;

const CASES: Case[] = [
  ['createValidation', 201, () => send('POST', `${TAX}/validations`, { key: DEMO, body: v })],
  [
    'createValidation',
    200,
    async () => {
      const body = { ...v, idempotencyKey: 'proxy-replay' };
      await send('POST', `${TAX}/validations`, { key: DEMO, body });
      return send('POST', `${TAX}/validations`, { key: DEMO, body });
    },
  ],
  [
    'createValidation',
    202,
    (s) => {
      s.admin.setProviderMode('VIES', 'async');
      return send('POST', `${TAX}/validations`, { key: DEMO, body: v });
    },
  ],
  ['createValidation', 402, () => send('POST', `${TAX}/validations`, { key: 'ak_locked_project', body: v })],
  ['createValidation', 403, () => send('POST', `${TAX}/validations`, { key: 'ak_expired_key', body: v })],
  [
    'createValidation',
    409,
    async () => {
      await send('POST', `${TAX}/validations`, { key: DEMO, body: { ...v, idempotencyKey: 'proxy-409' } });
      return send('POST', `${TAX}/validations`, {
        key: DEMO,
        body: { ...v, rawValue: '136695984', idempotencyKey: 'proxy-409' },
      });
    },
  ],
  [
    'createValidation',
    422,
    () => send('POST', `${TAX}/validations`, { key: DEMO, body: { ...v, preferredProvider: 'HMRC' } }),
  ],
  [
    'createValidation',
    500,
    (s) => {
      failNext(s);
      return send('POST', `${TAX}/validations`, { key: DEMO, body: v });
    },
  ],
  [
    'createValidationBatch',
    202,
    async () => {
      const body = {
        items: [
          { ...v, idempotencyKey: 'proxy-b1' },
          { countryCode: 'GB', rawValue: '980780684' },
        ],
      };
      await send('POST', `${TAX}/validations/batch`, { key: DEMO, body });
      // The second answer lists the first item as a replay.
      return send('POST', `${TAX}/validations/batch`, { key: DEMO, body });
    },
  ],
  [
    'createValidationBatch',
    402,
    () => send('POST', `${TAX}/validations/batch`, { key: 'ak_locked_project', body: { items: [v] } }),
  ],
  [
    'createValidationBatch',
    403,
    () => send('POST', `${TAX}/validations/batch`, { key: 'ak_expired_key', body: { items: [v] } }),
  ],
  [
    'createValidationBatch',
    409,
    async () => {
      await send('POST', `${TAX}/validations`, { key: DEMO, body: { ...v, idempotencyKey: 'proxy-b409' } });
      return send('POST', `${TAX}/validations/batch`, {
        key: DEMO,
        body: { items: [{ ...v, rawValue: '136695984', idempotencyKey: 'proxy-b409' }] },
      });
    },
  ],
  [
    'createValidationBatch',
    422,
    () =>
      send('POST', `${TAX}/validations/batch`, {
        key: DEMO,
        body: { items: [v, { ...v, preferredProvider: 'HMRC' }] },
      }),
  ],
  [
    'createValidationBatch',
    500,
    (s) => {
      failNext(s);
      return send('POST', `${TAX}/validations/batch`, { key: DEMO, body: { items: [v] } });
    },
  ],
  ['createSchedule', 201, () => send('POST', `${TAX}/schedules`, { key: DEMO, body: schedule })],
  [
    'createSchedule',
    402,
    () => send('POST', `${TAX}/schedules`, { key: 'ak_basic_project', body: schedule }),
  ],
  ['createSchedule', 403, () => send('POST', `${TAX}/schedules`, { key: 'ak_expired_key', body: schedule })],
  [
    'createSchedule',
    422,
    () => send('POST', `${TAX}/schedules`, { key: DEMO, body: { ...schedule, preferredProvider: 'HMRC' } }),
  ],
  [
    'createSchedule',
    500,
    (s) => {
      failNext(s);
      return send('POST', `${TAX}/schedules`, { key: DEMO, body: schedule });
    },
  ],
  [
    'deleteSchedule',
    204,
    async () => {
      const created = await send('POST', `${TAX}/schedules`, { key: DEMO, body: schedule });
      return send('DELETE', `${TAX}/schedules/${(created.body as { scheduleId: string }).scheduleId}`, {
        key: DEMO,
      });
    },
  ],
  ['deleteSchedule', 402, () => send('DELETE', `${TAX}/schedules/sched_x`, { key: 'ak_locked_project' })],
  ['deleteSchedule', 403, () => send('DELETE', `${TAX}/schedules/sched_x`, { key: 'ak_expired_key' })],
  ['deleteSchedule', 404, () => send('DELETE', `${TAX}/schedules/sched_x`, { key: DEMO })],
  [
    'deleteSchedule',
    500,
    (s) => {
      failNext(s);
      return send('DELETE', `${TAX}/schedules/sched_x`, { key: DEMO });
    },
  ],
  [
    'getValidationResult',
    200,
    async () => {
      const done = await send('POST', `${TAX}/validations`, { key: DEMO, body: v });
      const id = (done.body as { validationResultId: string }).validationResultId;
      return send('GET', `${TAX}/validation-results/${id}`, { key: DEMO });
    },
  ],
  [
    'getValidationResult',
    402,
    () => send('GET', `${TAX}/validation-results/valres_x`, { key: 'ak_locked_project' }),
  ],
  [
    'getValidationResult',
    403,
    () => send('GET', `${TAX}/validation-results/valres_x`, { key: 'ak_expired_key' }),
  ],
  ['getValidationResult', 404, () => send('GET', `${TAX}/validation-results/valres_x`, { key: DEMO })],
  [
    'getValidationResult',
    500,
    (s) => {
      failNext(s);
      return send('GET', `${TAX}/validation-results/valres_x`, { key: DEMO });
    },
  ],
  [
    'listAuditEvents',
    200,
    (s) => {
      s.admin.addAuditEvents({ count: 30, scope: 'project' });
      return send('GET', '/platform/v1/events?pageSize=20', { key: DEMO });
    },
  ],
  ['listAuditEvents', 402, () => send('GET', '/platform/v1/events', { key: 'ak_basic_project' })],
  ['listAuditEvents', 403, () => send('GET', '/platform/v1/events', { key: 'ak_expired_key' })],
  [
    'listAuditEvents',
    422,
    () => send('GET', '/platform/v1/events?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', { key: DEMO }),
  ],
  [
    'listAuditEvents',
    500,
    (s) => {
      failNext(s);
      return send('GET', '/platform/v1/events', { key: DEMO });
    },
  ],
  ...currentCases(),
  ...legacyCases(),
];

function currentCases(): Case[] {
  const path = (id: string) => `/captcha/v2/verifications/${id}/results`;
  return [
    ['getVerificationResult', 200, (s) => send('GET', path(verification(s)), { key: DEMO })],
    ['getVerificationResult', 402, (s) => send('GET', path(verification(s)), { key: 'ak_locked_project' })],
    ['getVerificationResult', 403, (s) => send('GET', path(verification(s)), { key: 'ak_expired_key' })],
    ['getVerificationResult', 404, () => send('GET', path(IDS.notFound), { key: DEMO })],
    ['getVerificationResult', 410, () => send('GET', path(IDS.expired), { key: DEMO })],
    ['getVerificationResult', 423, () => send('GET', path(IDS.notFinished), { key: DEMO })],
    ['getVerificationResult', 429, () => send('GET', path(IDS.fetchLimit), { key: DEMO })],
    [
      'getVerificationResult',
      500,
      (s) => {
        failNext(s);
        return send('GET', path(IDS.notFound), { key: DEMO });
      },
    ],
  ];
}

function legacyCases(): Case[] {
  const path = (id: string) => `/verifications/${id}/assessments`;
  const get = (id: string, key = DEMO) => send('GET', path(id), { key, legacy: true });
  return [
    ['getLegacyAssessment', 200, (s) => get(verification(s))],
    [
      'getLegacyAssessment',
      400,
      // An access token of the wrong format (the id is a UUID, so the request conforms).
      (s) => send('GET', `${path(verification(s))}?accessToken=not%20a%20token`, { legacy: true }),
    ],
    ['getLegacyAssessment', 402, (s) => get(verification(s), 'ak_locked_project')],
    ['getLegacyAssessment', 403, (s) => get(verification(s), 'ak_expired_key')],
    ['getLegacyAssessment', 404, () => get(IDS.notFound)],
    ['getLegacyAssessment', 410, () => get(IDS.expired)],
    ['getLegacyAssessment', 422, (s) => get(verification(s, { mode: 'INVISIBLE' }))],
    ['getLegacyAssessment', 423, () => get(IDS.notFinished)],
    [
      'getLegacyAssessment',
      500,
      (s) => {
        failNext(s);
        return get(IDS.notFound);
      },
    ],
  ];
}

/**
 * Documented statuses only a request outside the document can cause: Prism answers such a request
 * itself (and reports a request violation), so they are covered by the server's own tests instead.
 */
const OUTSIDE_THE_DOCUMENT: Record<number, string> = {
  400: 'a body that is not JSON',
  401: 'no API key (Prism answers 401 itself)',
  413: 'a body over 16 MiB',
};

function documented(): Array<[string, number]> {
  const doc = buildOpenApiDocument() as {
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  };
  return Object.values(doc.paths).flatMap((item) =>
    Object.values(item).flatMap((op) =>
      Object.keys(op.responses).map((s) => [op.operationId, Number(s)] as [string, number]),
    ),
  );
}

describe('every operation and every documented status passes through Prism in proxy mode without a violation', () => {
  it.each(CASES.map(([op, status, run]) => ({ name: `${op} ${status}`, status, run })))(
    '$name',
    async ({ status, run }) => {
      const s = server();
      try {
        const answer = await run(s);
        expect(answer.violations, JSON.stringify(answer.body)).toBeNull();
        expect(JSON.stringify(answer.body ?? '')).not.toMatch(/stoplight\.io\/prism/);
        expect(answer.status, JSON.stringify(answer.body)).toBe(status);
        // Request-Id on every response, success or not.
        expect(answer.requestId).toMatch(/\S/);
      } finally {
        s.admin.setFaults(undefined);
      }
    },
  );

  it('reports a request outside the document (so a violation would fail the cases above)', async () => {
    const answer = await send('POST', `${TAX}/validations`, {
      key: DEMO,
      body: { countryCode: 'germany', rawValue: '136695976' },
    });
    // With --errors Prism answers a violation itself, with its own problem type (a response
    // violation becomes its 500); without it, it would name the violation in sl-violations.
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.body)).toMatch(/stoplight\.io\/prism\/errors.*countryCode/);
  });

  it('drives every documented status of every operation that a conforming request can cause', () => {
    const driven = new Set(CASES.map(([op, status]) => `${op} ${status}`));
    const missing = documented()
      .filter(([op, status]) => !driven.has(`${op} ${status}`))
      .filter(
        ([op, status]) =>
          !(status in OUTSIDE_THE_DOCUMENT) || (op === 'getLegacyAssessment' && status === 400),
      );
    expect(missing).toEqual([]);
  });
});
