import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { TEST_KEY } from '../../src/server/fixtures.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { rawHttp } from '../helpers/raw-http.js';

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

describe('svc captcha token against svc serve (issue 24 acceptance, a real process)', () => {
  it('--outcome pass: captcha result accepts the token once and rejects it the second time', async () => {
    const minted = await svc(['captcha', 'token', '--outcome', 'pass', '--base-url', baseUrl]);
    expect(minted.code).toBe(0);
    const token = minted.stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const first = await svc(['captcha', 'result', token, '--base-url', baseUrl]);
    expect(first.code).toBe(0);
    const second = await svc(['captcha', 'result', token, '--base-url', baseUrl]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/fetch limit reached/);
  });

  it('the id of -o json works as well as the token', async () => {
    const minted = await svc(['captcha', 'token', '-o', 'json', '--base-url', baseUrl]);
    const { verificationId } = JSON.parse(minted.stdout) as { verificationId: string };
    expect((await svc(['captcha', 'result', verificationId, '--base-url', baseUrl])).code).toBe(0);
    expect((await svc(['captcha', 'result', verificationId, '--base-url', baseUrl])).code).toBe(1);
  });

  it('--outcome bot gives a token that is rejected (exit 3)', async () => {
    const minted = await svc(['captcha', 'token', '--outcome', 'bot', '--base-url', baseUrl]);
    expect(minted.code).toBe(0);
    const run = await svc(['captcha', 'result', minted.stdout.trim(), '--base-url', baseUrl, '-o', 'json']);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'reject' });
  });

  it('hostile request targets get 400 and svc serve keeps answering', async () => {
    const port = Number(new URL(baseUrl).port);
    const host = `Host: ${new URL(baseUrl).host}`;
    for (const line of ['GET // HTTP/1.1', 'GET http://[::1 HTTP/1.1', 'OPTIONS * HTTP/1.1']) {
      expect((await rawHttp(port, `${line}\r\n${host}`)).status, line).toBe(400);
    }
    expect((await rawHttp(port, `GET /__admin/stats HTTP/1.1\r\nHost: evil.example:${port}`)).status).toBe(
      403,
    );
    expect(serve.exitCode).toBeNull();
    expect((await rawHttp(port, `GET /__admin/stats HTTP/1.1\r\n${host}`)).status).toBe(200);
  });
});
