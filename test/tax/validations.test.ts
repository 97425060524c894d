import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  LocalValidationError,
  PaymentRequiredError,
  UnprocessableEntityError,
} from '../../src/core/errors/index.js';
import { watchCompletions } from '../../src/node/index.js';
import { failure, testClient, useTestClients } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const client = useTestClients(server);

async function processed(): Promise<number> {
  return server().admin.stats().validationsProcessed;
}

describe('a synchronous check completes with 201 and the full result', () => {
  it('returns VALID from the registry for a well-formed ID with a correct check digit', async () => {
    const outcome = await client().tax.validate({ countryCode: 'DE', rawValue: 'DE 136 695 976' });
    expect(outcome.kind).toBe('completed');
    if (outcome.kind !== 'completed') return;
    expect(outcome.replay).toBe(false);
    expect(outcome.result).toMatchObject({
      status: 'COMPLETED',
      outcome: 'VALID',
      provider: 'VIES',
      providerStatus: 'SUCCESS',
    });
    expect(outcome.result.responseData?.companyName).toMatch(/GmbH$/);
    expect(outcome.result.checkedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('reports a wrong check digit as INVALID (the registry decides), never as a local error by default', async () => {
    const outcome = await client().tax.validate({ countryCode: 'DE', rawValue: '136695977' });
    expect(outcome.kind === 'completed' && outcome.result.outcome).toBe('INVALID');
  });

  it('reports a country without a registry as NOT_SUPPORTED', async () => {
    const outcome = await client().tax.validate({ countryCode: 'US', rawValue: '123456789' });
    expect(outcome.kind === 'completed' && outcome.result.outcome).toBe('NOT_SUPPORTED');
  });

  it('routes by country: GB to HMRC, CH to SWISS_UID, NO to BRREG, AU to ABR, NZ to NZBN, XI to VIES', async () => {
    const cases: Array<[string, string, string]> = [
      ['GB', '980780684', 'HMRC'],
      ['CH', 'CHE-100.155.212', 'SWISS_UID'],
      ['NO', '988077917MVA', 'BRREG'],
      ['AU', '51824753556', 'ABR'],
      ['NZ', '9429050294954', 'NZBN'],
      ['XI', 'XI432525179', 'VIES'],
    ];
    for (const [countryCode, rawValue, provider] of cases) {
      const outcome = await client().tax.validate({ countryCode, rawValue });
      expect(outcome.kind === 'completed' && [outcome.result.provider, outcome.result.outcome]).toEqual([
        provider,
        'VALID',
      ]);
    }
  });

  it('routes a German requester checking a foreign EU ID to BZST, but never a German target', async () => {
    const foreign = await client().tax.validate({
      countryCode: 'AT',
      rawValue: 'ATU13585627',
      requesterVatId: 'DE136695976',
    });
    expect(foreign.kind === 'completed' && foreign.result.provider).toBe('BZST');
    const german = await client().tax.validate({
      countryCode: 'DE',
      rawValue: '136695976',
      requesterVatId: 'DE136695976',
    });
    expect(german.kind === 'completed' && german.result.provider).toBe('VIES');
  });

  it('echoes correlationId and stores customerMetadata with the result', async () => {
    const c = client();
    const outcome = await c.tax.validate({
      countryCode: 'DE',
      rawValue: '136695976',
      correlationId: 'trace-42',
      customerMetadata: { customer_id: 'c-1' },
    });
    if (outcome.kind !== 'completed') throw new Error('expected completed');
    expect(outcome.result.correlationId).toBe('trace-42');
    const fetched = await c.tax.getResult(outcome.result.validationResultId);
    expect(fetched.customerMetadata).toEqual({ customer_id: 'c-1' });
  });
});

describe('matching a company name and an address against the registry', () => {
  it('gives MATCH for the registry name, NO_MATCH for another, NOT_REQUESTED when absent', async () => {
    const c = client();
    const first = await c.tax.validate({ countryCode: 'DE', rawValue: '136695976' });
    if (first.kind !== 'completed') throw new Error('expected completed');
    expect(first.result.match).toEqual({ companyName: 'NOT_REQUESTED', address: 'NOT_REQUESTED' });
    const name = first.result.responseData?.companyName as string;
    const matched = await c.tax.validate({
      countryCode: 'DE',
      rawValue: '136695976',
      companyName: name.toUpperCase(),
    });
    expect(matched.kind === 'completed' && matched.result.match?.companyName).toBe('MATCH');
    const other = await c.tax.validate({
      countryCode: 'DE',
      rawValue: '136695976',
      companyName: 'Completely Different Corp',
    });
    expect(other.kind === 'completed' && other.result.match?.companyName).toBe('NO_MATCH');
  });
});

describe('422: invalid input is refused locally and by the server, naming every failing field', () => {
  it('refuses a value longer than 20 characters after normalization locally; nothing is sent', async () => {
    const before = server().admin.requests().length;
    await expect(
      client().tax.validate({ countryCode: 'DE', rawValue: '12345678901234567890123' }),
    ).rejects.toBeInstanceOf(LocalValidationError);
    expect(server().admin.requests().length).toBe(before);
  });

  it('lists every issue with its path', async () => {
    const error = await client()
      .tax.validate({
        countryCode: 'de',
        rawValue: '',
        companyName: 'x'.repeat(257),
        customerMetadata: { Bad: 'v', ok: 'x'.repeat(513) },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalValidationError);
    const paths = (error as LocalValidationError).issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'countryCode',
        'rawValue',
        'companyName',
        'customerMetadata.Bad',
        'customerMetadata.ok',
      ]),
    );
  });

  it('refuses 21 metadata pairs', async () => {
    const customerMetadata = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    await expect(
      client().tax.validate({ countryCode: 'DE', rawValue: '136695976', customerMetadata }),
    ).rejects.toThrow(/at most 20 metadata pairs/);
  });

  it('the server answers 422 problem+json with errors[] for the same rules', async () => {
    const res = await fetch(`${server().url}/taxvalidation/v1/validations`, {
      method: 'POST',
      headers: { authorization: 'Bearer ak_demo_project', 'content-type': 'application/json' },
      body: JSON.stringify({ countryCode: 'DEU', rawValue: 'x'.repeat(30), customerMetadata: { UP: 'x' } }),
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { errors: Array<{ path: string }> };
    expect(body.errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(['countryCode', 'rawValue', 'customerMetadata.UP']),
    );
    expect(await processed()).toBe(0);
  });

  it('a pinned provider that cannot serve the country is 422', async () => {
    await expect(
      client().tax.validate({ countryCode: 'DE', rawValue: '136695976', preferredProvider: 'HMRC' }),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
  });

  it('strict pre-check refuses a wrong check digit locally', async () => {
    await expect(
      client().tax.validate({ countryCode: 'DE', rawValue: '136695977' }, { precheck: 'strict' }),
    ).rejects.toThrow(/CHECKSUM/);
    expect(await processed()).toBe(0);
  });
});

describe('idempotency: a retried request with the same key is not processed twice', () => {
  it('gives 200 with the original result for the same key and body', async () => {
    const c = client();
    const a = await c.tax.validate({ countryCode: 'DE', rawValue: '136695976', idempotencyKey: 'k-1' });
    const b = await c.tax.validate({ countryCode: 'DE', rawValue: '136695976', idempotencyKey: 'k-1' });
    if (a.kind !== 'completed' || b.kind !== 'completed') throw new Error('expected completed');
    expect(b.replay).toBe(true);
    expect(b.result.validationResultId).toBe(a.result.validationResultId);
    expect(await processed()).toBe(1);
    expect(server().admin.stats().idempotentReplays).toBe(1);
  });

  it('gives 409 for the same key with another body', async () => {
    const c = client();
    await c.tax.validate({ countryCode: 'DE', rawValue: '136695976', idempotencyKey: 'k-2' });
    await expect(
      c.tax.validate({ countryCode: 'DE', rawValue: '136695984', idempotencyKey: 'k-2' }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('generates a key when none is given and reuses it across retries, so a lost response never validates twice', async () => {
    server().admin.setFaults({ rate: 1, kinds: ['reset'], seed: 7 });
    const delays: number[] = [];
    const c = testClient(server().url, {
      // Lift the faults once two attempts have failed; no real waiting.
      sleep: async (ms) => {
        delays.push(ms);
        if (delays.length >= 2) server().admin.setFaults(undefined);
      },
    });
    const outcome = await c.tax
      .validate({ countryCode: 'DE', rawValue: '136695976' }, { maxRetries: 5 })
      .finally(() => c.close());
    expect(outcome.kind).toBe('completed');
    expect(delays).toHaveLength(2);
    expect(await processed()).toBe(1);
    expect(outcome.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const bodies = server()
      .admin.requests()
      .filter((r) => r.path === '/taxvalidation/v1/validations');
    expect(bodies).toHaveLength(3);
  });
});

describe('402: project locked, plan lacks the feature, or a plan limit is reached', () => {
  it('stops at 25 stored identifiers on the basic plan', async () => {
    const c = client('ak_basic_project');
    // 25 distinct identifiers (any well-formed value stores one).
    for (let i = 0; i < 25; i++) {
      await c.tax.validate({ countryCode: 'DE', rawValue: String(100000000 + i) });
    }
    await expect(c.tax.validate({ countryCode: 'DE', rawValue: '199999999' })).rejects.toBeInstanceOf(
      PaymentRequiredError,
    );
    // A known identifier is not a new one.
    await expect(c.tax.validate({ countryCode: 'DE', rawValue: '100000000' })).resolves.toBeTruthy();
  });

  it('refuses schedules and attachSchedule on a plan without scheduled validation', async () => {
    const c = client('ak_basic_project');
    await expect(
      c.tax.createSchedule({ countryCode: 'DE', rawValue: '136695976', frequency: 'MONTHLY' }),
    ).rejects.toBeInstanceOf(PaymentRequiredError);
    await expect(
      c.tax.validate({ countryCode: 'DE', rawValue: '136695976', attachSchedule: { frequency: 'MONTHLY' } }),
    ).rejects.toThrow(/scheduled validation/);
  });

  it('refuses everything for a locked project', async () => {
    await expect(
      client('ak_locked_project').tax.validate({ countryCode: 'DE', rawValue: '136695976' }),
    ).rejects.toBeInstanceOf(PaymentRequiredError);
  });
});

describe('a 402 names its cause in a documented problem type', () => {
  it('project-locked, feature-not-in-plan and plan-limit-reached', async () => {
    const typeOf = async (promise: Promise<unknown>) =>
      ((await failure(promise)) as PaymentRequiredError).body as { type?: string };
    expect(
      await typeOf(client('ak_locked_project').tax.validate({ countryCode: 'DE', rawValue: '136695976' })),
    ).toMatchObject({ type: 'https://svc.invalid/problems/project-locked', status: 402 });
    const basic = client('ak_basic_project');
    expect(
      await typeOf(
        basic.tax.createSchedule({ countryCode: 'DE', rawValue: '136695976', frequency: 'MONTHLY' }),
      ),
    ).toMatchObject({ type: 'https://svc.invalid/problems/feature-not-in-plan' });
    for (let i = 0; i < 25; i++)
      await basic.tax.validate({ countryCode: 'DE', rawValue: String(200000000 + i) });
    expect(await typeOf(basic.tax.validate({ countryCode: 'DE', rawValue: '299999999' }))).toMatchObject({
      type: 'https://svc.invalid/problems/plan-limit-reached',
    });
  });
});

describe('ids are checked locally: a lone surrogate in an id is a LocalValidationError, nothing sent', () => {
  it('tax.getResult and tax.deleteSchedule', async () => {
    const before = server().admin.requests().length;
    await expect(client().tax.getResult('valres_\ud800')).rejects.toBeInstanceOf(LocalValidationError);
    await expect(client().tax.deleteSchedule('sched_\udc00')).rejects.toBeInstanceOf(LocalValidationError);
    expect(server().admin.requests()).toHaveLength(before);
  });
});

describe('schedules: nextRunAt is 1, 3 or 12 calendar months ahead, clamped to the month end', () => {
  it('computes nextRunAt from the server clock', async () => {
    server().admin.freezeClock();
    server().admin.setNow(Date.parse('2027-01-31T10:00:00.000Z'));
    const c = client();
    const monthly = await c.tax.createSchedule({
      countryCode: 'DE',
      rawValue: '136695976',
      frequency: 'MONTHLY',
    });
    expect(monthly.nextRunAt).toBe('2027-02-28T10:00:00.000Z');
    const quarterly = await c.tax.createSchedule({
      countryCode: 'DE',
      rawValue: '136695976',
      frequency: 'QUARTERLY',
    });
    expect(quarterly.nextRunAt).toBe('2027-04-30T10:00:00.000Z');
    const yearly = await c.tax.createSchedule({
      countryCode: 'DE',
      rawValue: '136695976',
      frequency: 'YEARLY',
    });
    expect(yearly.nextRunAt).toBe('2028-01-31T10:00:00.000Z');
  });

  it('attachSchedule creates a schedule with the validation', async () => {
    const outcome = await client().tax.validate({
      countryCode: 'DE',
      rawValue: '136695976',
      attachSchedule: { frequency: 'YEARLY' },
    });
    expect(outcome.kind === 'completed' && outcome.result.schedule?.scheduleId).toMatch(/^sched_/);
  });

  it('delete gives 204, a second delete 404', async () => {
    const c = client();
    const { scheduleId } = await c.tax.createSchedule({
      countryCode: 'DE',
      rawValue: '136695976',
      frequency: 'MONTHLY',
    });
    await expect(c.tax.deleteSchedule(scheduleId)).resolves.toEqual({ scheduleId, alreadyDeleted: false });
    await expect(c.tax.deleteSchedule(scheduleId)).rejects.toThrow(/404 Not Found/);
  });

  it('a project cannot see another project`s schedules or results', async () => {
    const { scheduleId } = await client().tax.createSchedule({
      countryCode: 'DE',
      rawValue: '136695976',
      frequency: 'MONTHLY',
    });
    await expect(client(`ak_${'x'.repeat(49)}`).tax.deleteSchedule(scheduleId)).rejects.toThrow(/404/);
  });
});

describe('GET /validation-results/{id}: input echo, outcome, provider, match, registry data, timestamps', () => {
  it('returns the stored result', async () => {
    const c = client();
    const outcome = await c.tax.validate({
      countryCode: 'FR',
      rawValue: 'FR40303265045',
      correlationId: 'c-9',
    });
    if (outcome.kind !== 'completed') throw new Error('expected completed');
    const result = await c.tax.getResult(outcome.result.validationResultId);
    expect(result).toMatchObject({
      validationResultId: outcome.result.validationResultId,
      outcome: 'VALID',
      provider: 'VIES',
      providerStatus: 'SUCCESS',
      verificationMethod: 'AUTOMATIC',
      correlationId: 'c-9',
      input: { countryCode: 'FR', rawValue: 'FR40303265045' },
    });
    expect(result.match).toBeDefined();
    expect(result.responseData?.companyName).toBeTruthy();
    expect(result.checkedAt).toBeTruthy();
  });

  it('404 for an unknown id', async () => {
    await expect(client().tax.getResult('valres_missing')).rejects.toThrow(/404 Not Found/);
  });
});

describe('values pasted from documents are sent in their canonical form', () => {
  it('sends the canonical value after mapping dashes, spaces, full-width digits and notations', async () => {
    const cases: Array<[string, string, string]> = [
      ['DE', 'DE 136–695–976', 'DE136695976'],
      ['DE', 'DE１３６６９５９７６', 'DE136695976'],
      ['BE', 'BE (0)468.561.072', 'BE0468561072'],
      ['DK', 'DK: 21599336', 'DK21599336'],
      ['LV', '33274961852', 'LV33274961852'],
      ['GB', 'GB GD8888 12345', 'GBGD888812345'],
    ];
    for (const [countryCode, rawValue, sent] of cases) {
      const outcome = await client().tax.validate({ countryCode, rawValue });
      if (outcome.kind !== 'completed') throw new Error('expected a completed validation');
      expect(outcome.result.input?.rawValue, rawValue).toBe(sent);
      expect(outcome.result.outcome, rawValue).toBe('VALID');
    }
  });

  it('sends the value as given when the pre-check is off', async () => {
    const outcome = await client().tax.validate(
      { countryCode: 'DE', rawValue: 'DE 136–695–976' },
      { precheck: 'off' },
    );
    if (outcome.kind !== 'completed') throw new Error('expected a completed validation');
    expect(outcome.result.input?.rawValue).toBe('DE 136–695–976');
    // The reference server runs the same pre-check, so its outcome follows.
    expect(outcome.result.outcome).toBe('VALID');
  });

  it('refuses nothing valid in strict mode', async () => {
    const outcome = await client().tax.validate(
      { countryCode: 'LV', rawValue: 'LV 32104468364' },
      { precheck: 'strict' },
    );
    expect(outcome.kind === 'completed' && outcome.result.outcome).toBe('VALID');
  });
});

describe('validate with wait: a PENDING answer is awaited on a completion watch', () => {
  it('async provider: returns the completed result, fetched from the result endpoint', async () => {
    server().admin.setProviderMode('VIES', 'async');
    const watch = await watchCompletions(client().tax);
    try {
      server().admin.addWebhookEndpoint(watch.url);
      const outcome = await client().tax.validate(
        { countryCode: 'DE', rawValue: '136695977' },
        { wait: { watch, timeoutMs: 60_000 } },
      );
      expect(outcome.kind).toBe('completed');
      if (outcome.kind !== 'completed') return;
      expect(outcome.result).toMatchObject({ status: 'COMPLETED', outcome: 'INVALID', provider: 'VIES' });
      const fetched = server()
        .admin.requests()
        .filter(
          (r) =>
            r.method === 'GET' && r.path.endsWith(`/validation-results/${outcome.result.validationResultId}`),
        );
      expect(fetched).toHaveLength(1);
    } finally {
      await watch.close();
    }
  });

  it('sync provider: the 201 result comes back without waiting', async () => {
    const watch = await watchCompletions(client().tax);
    try {
      const outcome = await client().tax.validate(
        { countryCode: 'DE', rawValue: '136695976' },
        { wait: { watch, timeoutMs: 0 } },
      );
      expect(outcome.kind === 'completed' && outcome.result.outcome).toBe('VALID');
    } finally {
      await watch.close();
    }
  });

  it('no completion within the timeout: the pending outcome, marked timedOut', async () => {
    server().admin.setProviderMode('VIES', 'async');
    const watch = await watchCompletions(client().tax);
    try {
      // The watch is not registered, so no event can arrive; timeout 0 returns at once.
      const outcome = await client().tax.validate(
        { countryCode: 'DE', rawValue: '136695976' },
        { wait: { watch, timeoutMs: 0 } },
      );
      expect(outcome.kind).toBe('pending');
      expect(outcome.kind === 'pending' && outcome.timedOut).toBe(true);
    } finally {
      await watch.close();
    }
  });

  it('without wait a PENDING answer is returned as before, not marked timedOut', async () => {
    server().admin.setProviderMode('VIES', 'async');
    const outcome = await client().tax.validate({ countryCode: 'DE', rawValue: '136695976' });
    expect(outcome.kind).toBe('pending');
    expect(outcome.kind === 'pending' && outcome.timedOut).toBeUndefined();
  });
});
