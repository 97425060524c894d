import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { TEST_KEY } from '../../src/server/fixtures.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';

let serve: ChildProcess & { output: () => { stdout: string; stderr: string } };
let baseUrl = '';

beforeAll(async () => {
  ensureBuilt();
  serve = spawnSvc(['serve', '--port', '0'], {});
  while (!serve.output().stdout.includes('\n')) {
    if (serve.exitCode !== null) throw new Error(`svc serve exited: ${serve.output().stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const first = serve.output().stdout.split('\n')[0] ?? '';
  baseUrl = /listening on (http:\/\/\S+)/.exec(first)?.[1] ?? '';
});

afterAll(async () => {
  serve.kill('SIGTERM');
  await exited(serve);
});

async function svc(args: string[], key = 'ak_demo_project') {
  const child = spawnSvc(args, { SVC_BASE_URL: baseUrl, SVC_API_KEY: key });
  const code = await exited(child);
  return { code, ...child.output() };
}

async function admin(path: string, body: unknown) {
  const res = await fetch(`${baseUrl}/__admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { verificationId: string; token: string; accessToken: string };
}

describe('bin/svc.js against svc serve (acceptance, from outside)', () => {
  it('test id ...0000 passes with exit 0; ...0004 is the fetch limit with exit 1', async () => {
    const ok = await svc(['captcha', 'result', IDS.passed, '-o', 'json'], TEST_KEY);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ decision: 'accept', result: { verificationPassed: true } });
    const limit = await svc(['captcha', 'result', IDS.fetchLimit], TEST_KEY);
    expect(limit.code).toBe(1);
    expect(limit.stderr).toMatch(/^svc: .*fetch limit reached/);
  });

  it('an admin-created verification: first fetch passes, the second is the fetch limit; bad token exits 2', async () => {
    const { token } = await admin('/verifications', { score: 0.45 });
    expect((await svc(['captcha', 'result', token, '--policy', 'multi-stage'])).code).toBe(4);
    expect((await svc(['captcha', 'result', token])).code).toBe(1);
    const before = (await (await fetch(`${baseUrl}/__admin/requests`)).json()) as { requests: unknown[] };
    const bad = await svc(['captcha', 'result', 'not-a-token!']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toMatch(/^svc: invalid verification token: not Base64/);
    const after = (await (await fetch(`${baseUrl}/__admin/requests`)).json()) as { requests: unknown[] };
    expect(after.requests).toHaveLength(before.requests.length);
  });
});
