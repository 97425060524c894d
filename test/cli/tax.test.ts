import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const env = (key = 'ak_demo_project') => ({ SVC_BASE_URL: server().url, SVC_API_KEY: key });
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
const processed = () => server().admin.stats().validationsProcessed;

describe('svc validate: one validation, result printed', () => {
  it('prints VALID / COMPLETED / VIES as JSON and exits 0', async () => {
    const run = await runSvc(['validate', 'DE', '136695976', '-o', 'json'], { env: env() });
    expect(run.code).toBe(0);
    expect(json(run.stdout)).toMatchObject({ outcome: 'VALID', status: 'COMPLETED', provider: 'VIES' });
  });

  it('a wrong check digit is INVALID from the registry; --precheck strict refuses it locally with exit 2', async () => {
    const loose = await runSvc(['validate', 'DE', '136695977', '-o', 'json'], { env: env() });
    expect(json(loose.stdout).outcome).toBe('INVALID');
    const strict = await runSvc(['validate', 'DE', '136695977', '--precheck', 'strict'], { env: env() });
    expect(strict.code).toBe(2);
    expect(strict.stderr.trim().split('\n')).toHaveLength(1);
    expect(strict.stderr).toMatch(/CHECKSUM/);
    expect(processed()).toBe(1);
  });

  it('a value over 20 characters exits 2 with one line naming rawValue; nothing reaches the server', async () => {
    const run = await runSvc(['validate', 'DE', '12345678901234567890123'], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/rawValue/);
    expect(server().admin.requests()).toHaveLength(0);
  });

  it.each([
    [
      '21 metadata pairs',
      Array.from({ length: 21 }, (_, i) => ['--metadata', `k${i}=v`]).flat(),
      /20 metadata pairs/,
    ],
    ['an upper-case key', ['--metadata', 'Customer=1'], /metadata key 'Customer'/],
    ['a 513-character value', ['--metadata', `k=${'v'.repeat(513)}`], /512/],
    ['a pair without =', ['--metadata', 'novalue'], /key=value/],
  ])('bad metadata (%s) exits 2 and sends nothing', async (_name, flags, message) => {
    const run = await runSvc(['validate', 'DE', '136695976', ...(flags as string[])], { env: env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message as RegExp);
    expect(server().admin.requests()).toHaveLength(0);
  });

  it('the same --idempotency-key twice: same result, the second marked as a replay, processed once', async () => {
    const args = ['validate', 'DE', '136695976', '--idempotency-key', 'cli-key-1', '-o', 'json'];
    const first = await runSvc(args, { env: env() });
    const second = await runSvc(args, { env: env() });
    expect(json(second.stdout).validationResultId).toBe(json(first.stdout).validationResultId);
    expect(first.stderr).not.toMatch(/replay/);
    expect(second.stderr).toMatch(/replay/);
    expect(processed()).toBe(1);
    const table = await runSvc(
      ['validate', 'DE', '136695976', '--idempotency-key', 'cli-key-1', '-o', 'table'],
      { env: env() },
    );
    expect(table.stdout).toMatch(/replay/);
  });

  it('--schedule on a plan without scheduled validation exits 1 saying so', async () => {
    const run = await runSvc(['validate', 'DE', '136695976', '--schedule', 'MONTHLY'], {
      env: env('ak_basic_project'),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/402.*scheduled validation/);
  });

  it('table output shows outcome, provider, providerStatus, match and company name', async () => {
    const run = await runSvc(['validate', 'DE', '136695976', '--company-name', 'ACME', '-o', 'table'], {
      env: env(),
    });
    for (const word of [
      'outcome',
      'VALID',
      'provider',
      'VIES',
      'providerStatus',
      'match.companyName',
      'companyName',
    ]) {
      expect(run.stdout).toContain(word);
    }
  });
});

describe('svc schedules create|delete', () => {
  it('creates with nextRunAt three months ahead, deletes, and a second delete exits 1 with not found', async () => {
    const created = await runSvc(
      ['schedules', 'create', 'DE', '136695976', '--frequency', 'QUARTERLY', '-o', 'json'],
      {
        env: env(),
      },
    );
    expect(created.code).toBe(0);
    const { scheduleId, nextRunAt } = json(created.stdout) as { scheduleId: string; nextRunAt: string };
    const expected = new Date();
    expected.setUTCMonth(expected.getUTCMonth() + 3);
    expect(Math.abs(Date.parse(nextRunAt) - expected.getTime())).toBeLessThan(4 * 24 * 3600 * 1000);
    const deleted = await runSvc(['schedules', 'delete', scheduleId], { env: env() });
    expect(deleted.code).toBe(0);
    const again = await runSvc(['schedules', 'delete', scheduleId], { env: env() });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/404 Not Found/);
  });

  it('exits 1 with the plan message on ak_basic_project', async () => {
    const run = await runSvc(['schedules', 'create', 'DE', '136695976', '--frequency', 'MONTHLY'], {
      env: env('ak_basic_project'),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/plan does not include scheduled validation/);
  });

  it('an unknown frequency is a usage error', async () => {
    const run = await runSvc(['schedules', 'create', 'DE', '136695976', '--frequency', 'DAILY'], {
      env: env(),
    });
    expect(run.code).toBe(2);
  });
});

describe('svc results get', () => {
  it('prints the stored result with input echo, outcome, provider, match, registry data and timestamps', async () => {
    const v = json(
      (await runSvc(['validate', 'DE', '136695976', '--correlation-id', 'c-1', '-o', 'json'], { env: env() }))
        .stdout,
    );
    const run = await runSvc(['results', 'get', String(v.validationResultId), '-o', 'json'], { env: env() });
    const result = json(run.stdout);
    for (const key of [
      'input',
      'outcome',
      'provider',
      'providerStatus',
      'verificationMethod',
      'match',
      'responseData',
      'checkedAt',
      'correlationId',
    ]) {
      expect(result).toHaveProperty(key);
    }
    expect(result.correlationId).toBe('c-1');
  });
});

describe('svc precheck: offline, no network', () => {
  it('prints the pre-check result and exits 0 for a valid ID, 2 for an invalid one', async () => {
    const ok = await runSvc(['precheck', 'el', 'EL 094 259 216', '-o', 'json']);
    expect(ok.code).toBe(0);
    expect(json(ok.stdout)).toEqual({
      valid: true,
      code: 'OK',
      normalized: 'EL094259216',
      canonical: 'EL094259216',
    });
    const bad = await runSvc(['precheck', 'DE', '136695977', '-o', 'json']);
    expect(bad.code).toBe(2);
    expect(json(bad.stdout).code).toBe('CHECKSUM');
  });
});

describe('async provider: validate reports PENDING and the listener receives the webhooks', () => {
  it('delivers completed and invalid to a registered listener', async () => {
    server().admin.setProviderMode('VIES', 'async');
    const controller = new AbortController();
    const listen = runSvc(['webhooks', 'listen', '--register', server().url, '--max-events', '2'], {
      env: env(),
      signal: controller.signal,
    });
    // Wait until the listener has registered itself with the server.
    while (server().admin.webhookEndpoints().length === 0)
      await new Promise((resolve) => setImmediate(resolve));
    const pending = await runSvc(['validate', 'DE', '136695977', '-o', 'json'], { env: env() });
    expect(json(pending.stdout).status).toBe('PENDING');
    const run = await listen;
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => json(line).eventType);
    expect(events.sort()).toEqual(['taxvalidation.validation.completed', 'taxvalidation.validation.invalid']);
    expect(run.stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}/);
  });
});

describe('svc validate --exit-status: 0 VALID, 3 INVALID, 4 not conclusive', () => {
  it.each([
    ['VALID', 'DE', '136695976', 0],
    ['INVALID', 'DE', '136695977', 3],
    ['NOT_SUPPORTED', 'US', '123456789', 4],
  ])('%s exits %i (sync provider)', async (outcome, cc, value, code) => {
    const run = await runSvc(['validate', cc as string, value as string, '--exit-status', '-o', 'json'], {
      env: env(),
    });
    expect(json(run.stdout).outcome).toBe(outcome);
    expect(run.code).toBe(code);
  });

  it('SOURCE_UNAVAILABLE exits 4', async () => {
    server().admin.setProviderMode('VIES', 'unavailable');
    const run = await runSvc(['validate', 'DE', '136695976', '--exit-status', '-o', 'json'], { env: env() });
    expect(json(run.stdout).outcome).toBe('SOURCE_UNAVAILABLE');
    expect(run.code).toBe(4);
  });

  it('without the flag the exit stays 0 for INVALID and PENDING', async () => {
    const invalid = await runSvc(['validate', 'DE', '136695977', '-o', 'json'], { env: env() });
    expect(invalid.code).toBe(0);
    server().admin.setProviderMode('VIES', 'async');
    const pending = await runSvc(['validate', 'DE', '136695977', '-o', 'json'], { env: env() });
    expect(json(pending.stdout).status).toBe('PENDING');
    expect(pending.code).toBe(0);
  });

  it('a PENDING answer (async provider, no --wait) exits 4', async () => {
    server().admin.setProviderMode('VIES', 'async');
    const run = await runSvc(['validate', 'DE', '136695976', '--exit-status', '-o', 'json'], { env: env() });
    expect(json(run.stdout).status).toBe('PENDING');
    expect(run.code).toBe(4);
  });
});

describe('svc validate --wait: a PENDING result is awaited up to --wait-timeout', () => {
  it.each([
    ['136695976', 'VALID', 0],
    ['136695977', 'INVALID', 3],
  ])('async provider, %s: prints the completed result (%s) and exits %i', async (value, outcome, code) => {
    server().admin.setProviderMode('VIES', 'async');
    const run = await runSvc(
      ['validate', 'DE', value, '--wait', '--register', server().url, '--exit-status', '-o', 'json'],
      { env: env() },
    );
    expect(json(run.stdout)).toMatchObject({ status: 'COMPLETED', outcome });
    expect(run.code).toBe(code);
    // The listener registered itself with the server before the request was sent, and removed itself at exit.
    expect(server().admin.webhookEndpoints()).toEqual([]);
  });

  it('sync provider: --wait changes nothing', async () => {
    const run = await runSvc(['validate', 'DE', '136695976', '--wait', '--exit-status', '-o', 'json'], {
      env: env(),
    });
    expect(json(run.stdout).outcome).toBe('VALID');
    expect(run.code).toBe(0);
  });

  it('timeout: prints the pending result, warns, and exits 4 with --exit-status (0 without)', async () => {
    server().admin.setProviderMode('VIES', 'async');
    // Not registered anywhere, so no completion can arrive; --wait-timeout 0 gives up at once.
    const args = ['validate', 'DE', '136695976', '--wait', '--wait-timeout', '0', '-o', 'json'];
    const run = await runSvc([...args, '--exit-status'], { env: env() });
    expect(json(run.stdout).status).toBe('PENDING');
    expect(run.stderr).toMatch(/register it as the project's webhook endpoint/);
    expect(run.stderr).toMatch(/warning: no result after 0 s; the validation is still PENDING/);
    expect(run.code).toBe(4);
    const plain = await runSvc(args, { env: env() });
    expect(plain.code).toBe(0);
  });

  it('runs with --sandbox, which needs no --register', async () => {
    const run = await runSvc([
      '--sandbox',
      'validate',
      'DE',
      '136695976',
      '--wait',
      '--exit-status',
      '-o',
      'json',
    ]);
    expect(json(run.stdout).outcome).toBe('VALID');
    expect(run.code).toBe(0);
  });

  it('a bad --wait-timeout is a usage error (exit 2) and sends nothing', async () => {
    const run = await runSvc(['validate', 'DE', '136695976', '--wait', '--wait-timeout', 'soon'], {
      env: env(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--wait-timeout/);
    expect(server().admin.requests()).toHaveLength(0);
  });
});

describe('ids are checked locally on every path: a lone surrogate is a local validation error, nothing sent', () => {
  it('svc results get and svc schedules delete exit 2 with one line, and no request reaches the server', async () => {
    const before = server().admin.requests().length;
    for (const args of [
      ['results', 'get', 'valres_\ud800x'],
      ['schedules', 'delete', 'sched_\udfffx'],
    ]) {
      const run = await runSvc(args, { env: env() });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/lone surrogate/);
      expect(run.stderr).not.toMatch(/URIError|at /);
    }
    expect(server().admin.requests()).toHaveLength(before);
  });
});
