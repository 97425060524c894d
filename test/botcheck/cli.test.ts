import { describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { encodeVerificationToken } from '../../src/botcheck/token.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { createReferenceServer } from '../../src/server/index.js';
import { useJsonAnswerServer } from '../core/local-servers.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const env = (key: string = DEMO.projectKey) => ({ SVC_BASE_URL: server().url, SVC_API_KEY: key });
const json = (text: string) => JSON.parse(text) as { result: Record<string, unknown>; decision: string };
const oneLine = (stderr: string) => {
  expect(stderr.trim().split('\n')).toHaveLength(1);
  return stderr;
};

describe('acceptance 1: the test ids with the test key', () => {
  it('...0000 gives a passed result and exit 0; -o json prints {result, decision}', async () => {
    const run = await runSvc(['captcha', 'result', IDS.passed, '-o', 'json'], { env: env(TEST_KEY) });
    expect(run.code).toBe(0);
    expect(json(run.stdout)).toMatchObject({ result: { verificationPassed: true }, decision: 'accept' });
  });

  it.each([
    [IDS.notFound, /not found/],
    [IDS.notFinished, /not finished/],
    [IDS.expired, /expired/],
    [IDS.fetchLimit, /fetch limit/],
  ])('%s exits 1 with a line saying %s', async (id, says) => {
    const run = await runSvc(['captcha', 'result', id], { env: env(TEST_KEY) });
    expect(run.code).toBe(1);
    expect(oneLine(run.stderr)).toMatch(says);
    expect(run.stdout).toBe('');
  });

  it('the legacy command uses the legacy codes (fetch limit is 410)', async () => {
    const ok = await runSvc(['captcha', 'legacy', IDS.passed], { env: env(TEST_KEY) });
    expect(ok.code).toBe(0);
    const limit = await runSvc(['captcha', 'legacy', IDS.fetchLimit], { env: env(TEST_KEY) });
    expect(limit.code).toBe(1);
    expect(oneLine(limit.stderr)).toMatch(
      /410 Gone.*already retrieved or expired; the captcha must be solved again/,
    );
  });
});

describe('acceptance 2: an admin-created verification', () => {
  it('first fetch passes, the second is the fetch limit (current API)', async () => {
    const { token } = server().admin.createVerification();
    expect((await runSvc(['captcha', 'result', token], { env: env() })).code).toBe(0);
    const second = await runSvc(['captcha', 'result', token], { env: env() });
    expect(second.code).toBe(1);
    expect(oneLine(second.stderr)).toMatch(/429 .*fetch limit reached: result already retrieved/);
  });

  it('first fetch passes, the second is already retrieved (legacy API)', async () => {
    const { verificationId } = server().admin.createVerification();
    expect((await runSvc(['captcha', 'legacy', verificationId], { env: env() })).code).toBe(0);
    const second = await runSvc(['captcha', 'legacy', verificationId], { env: env() });
    expect(second.code).toBe(1);
    expect(oneLine(second.stderr)).toMatch(/410 .*already retrieved/);
  });

  it('unfinished is not finished; after 16 minutes expired', async () => {
    const { verificationId } = server().admin.createVerification({ finished: false });
    const early = await runSvc(['captcha', 'result', verificationId], { env: env() });
    expect(early.code).toBe(1);
    expect(oneLine(early.stderr)).toMatch(/not finished/);
    server().admin.finishVerification(verificationId);
    server().admin.advanceClock(16 * 60_000);
    const late = await runSvc(['captcha', 'result', verificationId], { env: env() });
    expect(late.code).toBe(1);
    expect(oneLine(late.stderr)).toMatch(/expired/);
  });

  it('--wait asks again while not finished, until released', async () => {
    const { verificationId } = server().admin.createVerification({ finished: false });
    // Released while the CLI pauses between attempts (interval 500 ms).
    const release = setTimeout(() => server().admin.finishVerification(verificationId), 200);
    const run = await runSvc(['captcha', 'result', verificationId, '--wait', '5000'], { env: env() });
    clearTimeout(release);
    expect(run.code).toBe(0);
    expect(
      server()
        .admin.requests()
        .map((r) => r.status),
    ).toEqual([423, 200]);
  });

  it('the table shows verdict, score, decision type and action, timestamps and the decision', async () => {
    const { verificationId } = server().admin.createVerification({ score: 0.2, decisionAction: 'ALLOW' });
    const run = await runSvc(['captcha', 'result', verificationId, '-o', 'table'], { env: env() });
    expect(run.code).toBe(0);
    for (const text of ['verdict', 'passed', '0.2', 'STANDARD', 'ALLOW', 'resultExpiresAt', 'ACCEPT']) {
      expect(run.stdout).toContain(text);
    }
    expect(run.stdout).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
  });

  it('the legacy table shows the reason and UTC timestamps', async () => {
    const { verificationId } = server().admin.createVerification({ passed: false, reason: 'GEOBLOCKING' });
    const run = await runSvc(['captcha', 'legacy', verificationId, '-o', 'table'], { env: env() });
    expect(run.code).toBe(3);
    for (const text of ['not passed', 'GEOBLOCKING', 'released (UTC)', 'REJECT'])
      expect(run.stdout).toContain(text);
  });

  it('--access-token works with a deprecation warning and never prints the token', async () => {
    const { verificationId, accessToken } = server().admin.createVerification();
    const run = await runSvc(['captcha', 'legacy', verificationId, '--access-token', accessToken], {
      env: { SVC_BASE_URL: server().url },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: --access-token is deprecated/);
    expect(run.stdout + run.stderr).not.toContain(accessToken);
  });
});

describe('acceptance 3: a token whose apiEndpoint names another host', () => {
  it('goes to the configured base URL only', async () => {
    const other = await createReferenceServer();
    try {
      const { verificationId } = server().admin.createVerification();
      const token = encodeVerificationToken({ verificationId, apiEndpoint: other.url });
      const run = await runSvc(['--debug', 'captcha', 'result', token], { env: env() });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/apiEndpoint; it is deprecated and ignored/);
      expect(run.stderr).toContain(
        `GET ${server().url}/captcha/v2/verifications/${verificationId}/results -> 200`,
      );
      expect(run.stderr).not.toContain(other.url);
      expect(other.admin.requests()).toEqual([]);
      expect(server().admin.requests()).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe('acceptance 4: malformed tokens exit 2 with a clear line and send nothing', () => {
  it.each([
    ['not Base64', 'this is not base64!', /not Base64/],
    ['not JSON', Buffer.from('hello world').toString('base64'), /not JSON/],
    ['no verificationId', Buffer.from('{"apiEndpoint":"x"}').toString('base64'), /no verificationId/],
    ['1 MB long', 'A'.repeat(1024 * 1024), /at most 4096/],
  ])('%s', async (_, token, says) => {
    for (const command of ['result', 'legacy']) {
      const run = await runSvc(['captcha', command, token], { env: env() });
      expect(run.code).toBe(2);
      expect(oneLine(run.stderr)).toMatch(/invalid verification token/);
      expect(run.stderr).toMatch(says);
    }
    expect(server().admin.requests()).toHaveLength(0);
  });

  it('svc token decode says the same, also from stdin', async () => {
    const bad = await runSvc(['token', 'decode', '-'], { stdin: 'A'.repeat(1024 * 1024) });
    expect(bad.code).toBe(2);
    expect(oneLine(bad.stderr)).toMatch(/invalid verification token: .*at most 4096/);
  });
});

describe('acceptance 5: --policy multi-stage', () => {
  it.each([
    [0.45, true, 4],
    [0.85, true, 3],
    [0.1, true, 0],
    [0.1, false, 3],
  ])('score %s, passed %s exits %s', async (score, passed, code) => {
    const { token } = server().admin.createVerification({ score, passed });
    const run = await runSvc(['captcha', 'result', token, '--policy', 'multi-stage'], { env: env() });
    expect(run.code).toBe(code);
  });

  it('takes limits, threshold and pow-only', async () => {
    const runWith = async (policy: string, score: number) => {
      const { verificationId } = server().admin.createVerification({ score });
      return (await runSvc(['captcha', 'result', verificationId, '--policy', policy], { env: env() })).code;
    };
    expect(await runWith('multi-stage:0.2,0.5', 0.3)).toBe(4);
    expect(await runWith('threshold:0.3', 0.3)).toBe(3);
    expect(await runWith('threshold', 0.49)).toBe(0);
    expect(await runWith('pow-only', 0.99)).toBe(0);
  });

  it('a failover result follows --on-failover (default: extra check)', async () => {
    const make = () =>
      server().admin.createVerification({ decisionType: 'FAILOVER', score: 0.3 }).verificationId;
    expect((await runSvc(['captcha', 'result', make()], { env: env() })).code).toBe(4);
    expect(
      (await runSvc(['captcha', 'result', make(), '--on-failover', 'accept'], { env: env() })).code,
    ).toBe(0);
  });

  it.each(['bogus', 'threshold:2', 'threshold:x', 'multi-stage:0.9,0.1', 'multi-stage:0.5', 'pow-only:1'])(
    'a bad policy %s exits 2 before any request',
    async (policy) => {
      const run = await runSvc(['captcha', 'result', IDS.passed, '--policy', policy], { env: env(TEST_KEY) });
      expect(run.code).toBe(2);
      expect(oneLine(run.stderr)).toMatch(/--policy/);
      expect(server().admin.requests()).toHaveLength(0);
    },
  );
});

describe('--expect-origin URL and --max-age DURATION: binding checks, each a reject reason', () => {
  const reasons = (stdout: string) =>
    (JSON.parse(stdout) as { reasons: Array<{ code: string }> }).reasons.map((r) => r.code);

  it('--expect-origin accepts the origin the captcha was solved on and rejects another (exit 3)', async () => {
    const a = server().admin.createVerification();
    const ok = await runSvc(['captcha', 'result', a.token, '--expect-origin', 'https://www.example.com'], {
      env: env(),
    });
    expect(ok.code).toBe(0);
    const b = server().admin.createVerification();
    const other = await runSvc(
      ['captcha', 'legacy', b.token, '--expect-origin', 'https://evil.example', '-o', 'json'],
      { env: env() },
    );
    expect(other.code).toBe(3);
    expect(reasons(other.stdout)[0]).toBe('ORIGIN_MISMATCH');
  });

  it('--expect-origin is repeatable; an empty origin (minimal-data mode) passes', async () => {
    const { token } = server().admin.createVerification({ minimalDataMode: true });
    const run = await runSvc(
      [
        'captcha',
        'result',
        token,
        '--expect-origin',
        'https://a.example',
        '--expect-origin',
        'https://b.example',
      ],
      { env: env() },
    );
    expect(run.code).toBe(0);
  });

  it('--max-age rejects a verification that finished longer ago (server clock moved back)', async () => {
    server().admin.setNow(Date.now() - 10 * 60_000);
    const old = server().admin.createVerification();
    const young = server().admin.createVerification();
    const tooOld = await runSvc(['captcha', 'result', old.token, '--max-age', '5m', '-o', 'json'], {
      env: env(),
    });
    expect(tooOld.code).toBe(3);
    expect(reasons(tooOld.stdout)[0]).toBe('TOO_OLD');
    expect((await runSvc(['captcha', 'legacy', young.token, '--max-age', '2h'], { env: env() })).code).toBe(
      0,
    );
  });

  it.each(['5', '5 minutes', '-5m', '0s', '1d'])(
    'a bad --max-age %s exits 2 with one line, nothing sent',
    async (d) => {
      const run = await runSvc(['captcha', 'result', IDS.passed, '--max-age', d], { env: env(TEST_KEY) });
      expect(run.code).toBe(2);
      expect(oneLine(run.stderr)).toMatch(/--max-age must be a duration such as 90s, 5m or 2h/);
      expect(server().admin.requests()).toHaveLength(0);
    },
  );

  it('a bad --expect-origin exits 2 with one line', async () => {
    const run = await runSvc(['captcha', 'result', IDS.passed, '--expect-origin', 'example.com'], {
      env: env(TEST_KEY),
    });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toMatch(/--expect-origin must be an http\(s\) URL/);
  });
});

describe('hostile answers and ids', () => {
  const hostile = useJsonAnswerServer();
  const asked = '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f';
  const hostileEnv = () => ({ SVC_BASE_URL: hostile.url(), SVC_API_KEY: DEMO.projectKey });

  it('a result for another verificationId is a reject (exit 3) naming the reason', async () => {
    hostile.body = {
      verificationId: '00000000-5d4a-4b6c-9e8f-0a1b2c3d4e5f',
      verificationPassed: true,
      score: 0,
    };
    const run = await runSvc(['captcha', 'result', asked, '-o', 'table'], { env: hostileEnv() });
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/answered for another verification/);
  });

  it.each(['constructor', 'toString', '__proto__'])(
    'a legacy reason %s prints as that string',
    async (reason) => {
      hostile.body = { verificationId: asked, verificationPassed: true, score: 0, reason };
      const run = await runSvc(['captcha', 'legacy', asked, '-o', 'table'], { env: hostileEnv() });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(reason);
      expect(run.stdout).not.toMatch(/function|native code|\[object/);
    },
  );

  it('a lone surrogate in the id exits 2 with one line, nothing sent', async () => {
    const run = await runSvc(['captcha', 'result', '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5\ud800'], {
      env: env(),
    });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toMatch(/well-formed Unicode/);
    const token = await runSvc(['captcha', 'legacy', IDS.passed, '--access-token', 'abc\udc00'], {
      env: env(TEST_KEY),
    });
    expect(token.code).toBe(2);
    expect(server().admin.requests()).toHaveLength(0);
  });
});

describe('svc token decode <token | ->', () => {
  it('prints the id and the deprecated apiEndpoint, never the encrypted access token', async () => {
    const { token, verificationId } = server().admin.createVerification();
    const encrypted = JSON.parse(Buffer.from(token, 'base64').toString()).encryptedAccessToken as string;
    const run = await runSvc(['token', 'decode', token]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      verificationId,
      apiEndpoint: 'https://legacy-api.svc.invalid/',
      encryptedAccessToken: '[redacted]',
    });
    expect(run.stdout + run.stderr).not.toContain(encrypted);
    const piped = await runSvc(['token', 'decode', '-'], { stdin: `${token}\n` });
    expect(JSON.parse(piped.stdout).verificationId).toBe(verificationId);
  });
});
