import { afterAll, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { MalformedResponseError } from '../../src/core/errors/index.js';
import { useJsonAnswerServer } from '../core/local-servers.js';
import { failure } from '../helpers/client.js';

const answers = useJsonAnswerServer();
const clients: SvcClient[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));
function client(): SvcClient {
  const c = new SvcClient({ baseUrl: answers.url(), apiKey: 'ak_demo_project', maxRetries: 0 });
  clients.push(c);
  return c;
}
function answer(body: Record<string, unknown>): void {
  for (const key of Object.keys(answers.body)) delete answers.body[key];
  Object.assign(answers.body, body);
}

const ID = '0b8f3c52-7d1e-4f6a-9b2c-3d4e5f6a7b8c';
const result = {
  validationRequestId: 'valreq_1',
  validationResultId: 'valres_1',
  status: 'COMPLETED',
  outcome: 'VALID',
  provider: 'VIES',
  checkedAt: '2026-03-01T10:15:30.123Z',
};
const page = {
  from: '2026-02-28T10:15:30.123Z',
  to: '2026-03-01T10:15:30.123Z',
  content: [
    {
      id: 'e1',
      schemaVersion: 2,
      occurredAt: '2026-03-01T09:00:00.000Z',
      type: 'a.b.c',
      actor: { type: 'SYSTEM' },
    },
  ],
  page: 0,
  pageSize: 100,
  totalElements: 1,
  nextCursor: null,
};
const verification = { verificationId: ID, verificationPassed: true, score: 0.2 };

describe('responses: values added later are kept, values that can never be valid are a MalformedResponseError', () => {
  it('keeps an unknown outcome, provider and decision type, and a later schemaVersion', async () => {
    answer({ ...result, outcome: 'PROBABLY_VALID', provider: 'NEW_REGISTRY' });
    expect(await client().tax.getResult('valres_1')).toMatchObject({
      outcome: 'PROBABLY_VALID',
      provider: 'NEW_REGISTRY',
    });
    answer({ ...page, content: [{ ...page.content[0], schemaVersion: 3 }] });
    expect((await client().audit.listEvents({})).content[0]?.schemaVersion).toBe(3);
    answer({ ...verification, decisionType: 'ML_MODEL' });
    expect((await client().botCheck.getResult(ID)).decisionType).toBe('ML_MODEL');
  });

  it.each([
    [
      'a score above 1',
      () => answer({ ...verification, score: 72128663.58 }),
      () => client().botCheck.getResult(ID),
    ],
    [
      'a negative score',
      () => answer({ ...verification, score: -0.1 }),
      () => client().botCheck.getResult(ID),
    ],
    [
      'a legacy score above 1',
      () => answer({ ...verification, score: 1.5 }),
      () => client().legacyBotCheck.getAssessment(ID),
    ],
    [
      'a negative page',
      () => answer({ ...page, page: -9007199254740991 }),
      () => client().audit.listEvents({}),
    ],
    ['a pageSize above 1000', () => answer({ ...page, pageSize: 5000 }), () => client().audit.listEvents({})],
    [
      'schemaVersion 0',
      () => answer({ ...page, content: [{ ...page.content[0], schemaVersion: 0 }] }),
      () => client().audit.listEvents({}),
    ],
    [
      'a checkedAt that is no timestamp',
      () => answer({ ...result, checkedAt: 'yesterday' }),
      () => client().tax.getResult('valres_1'),
    ],
    [
      'a legacy timestamp that is no timestamp',
      () => answer({ ...verification, creationTimestamp: 'soon' }),
      () => client().legacyBotCheck.getAssessment(ID),
    ],
    [
      'a verificationId that is no UUID',
      () => answer({ ...verification, verificationId: 'x' }),
      () => client().botCheck.getResult(ID),
    ],
  ])('%s', async (_name, setup, call) => {
    setup();
    const error = await failure(call());
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toMatch(/^Unexpected .* from the server: /);
  });
});
