import { describe, expect, it } from 'vitest';
import { DEV_OUTCOMES } from '../../src/botcheck/dev-outcomes.js';
import { createDevVerification, DevServerRequiredError } from '../../src/botcheck/dev-verification.js';
import { decodeVerificationToken } from '../../src/botcheck/token.js';
import { startServer } from '../core/local-servers.js';
import { runSvc } from '../helpers/cli.js';
import { failure, testClient } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const base = () => ['--base-url', server().url];

describe('svc captcha token: a fresh token with an outcome, minted on a dev server', () => {
  it('prints the token alone (for $(...)), no key needed; the result answers once', async () => {
    const run = await runSvc(['captcha', 'token', ...base()], { env: { SVC_API_KEY: undefined } });
    expect(run.code).toBe(0);
    const token = run.stdout.trim();
    expect(run.stdout).toBe(`${token}\n`);
    const { verificationId } = decodeVerificationToken(token);
    expect(run.stderr).toContain(verificationId);
    expect(run.stderr).toContain('outcome pass');
    const env = { SVC_API_KEY: 'ak_demo_project' };
    expect((await runSvc(['captcha', 'result', token, ...base()], { env })).code).toBe(0);
    expect((await runSvc(['captcha', 'result', verificationId, ...base()], { env })).code).toBe(1);
  });

  it.each([
    ['bot', 3],
    ['fail', 3],
    ['challenge', 4],
    ['failover', 4],
  ] as const)('--outcome %s: captcha result exits %i', async (outcome, exit) => {
    const minted = await runSvc(['captcha', 'token', '--outcome', outcome, ...base()]);
    expect(minted.code).toBe(0);
    const env = { SVC_API_KEY: 'ak_demo_project' };
    const policy = outcome === 'challenge' ? ['--policy', 'multi-stage'] : [];
    const run = await runSvc(['captcha', 'result', minted.stdout.trim(), ...policy, ...base()], { env });
    expect(run.code).toBe(exit);
  });

  it('-o json prints {verificationId, token, outcome} and never the access token', async () => {
    const run = await runSvc(['captcha', 'token', '--outcome', 'unfinished', '-o', 'json', ...base()]);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as Record<string, string>;
    expect(Object.keys(printed).sort()).toEqual(['outcome', 'token', 'verificationId']);
    expect(decodeVerificationToken(printed.token ?? '').verificationId).toBe(printed.verificationId);
    expect(printed.outcome).toBe('unfinished');
  });

  it('works with --sandbox', async () => {
    const run = await runSvc(['captcha', 'token', '--sandbox', '-o', 'ndjson']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'pass' });
  });

  it('an unknown outcome is a usage error (exit 2) naming every outcome; nothing is sent', async () => {
    const before = server().admin.stats().requestsByRoute['POST /__admin/verifications'];
    const run = await runSvc(['captcha', 'token', '--outcome', 'maybe', ...base()]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    for (const outcome of DEV_OUTCOMES) expect(run.stderr).toContain(outcome);
    expect(server().admin.stats().requestsByRoute['POST /__admin/verifications']).toBe(before);
  });

  it('-o table is refused: the command prints the token or JSON', async () => {
    const run = await runSvc(['captcha', 'token', '-o', 'table', ...base()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/json, ndjson/);
  });

  it('a base URL that is not a dev server (404) exits 2 with one line saying so, no stack', async () => {
    const real = await startServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"message":"not found"}');
    });
    try {
      const run = await runSvc(['captcha', 'token', '--base-url', real.url]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/no dev-server admin API.*svc serve/);
      expect(real.seen[0]?.headers.authorization).toBeUndefined();
    } finally {
      await real.close();
    }
  });
});

describe('createDevVerification: the library call behind svc captcha token', () => {
  it('returns id, token and access token of a verification with the outcome', async () => {
    const client = testClient(server().url);
    try {
      const created = await createDevVerification(client, { outcome: 'bot' });
      expect(decodeVerificationToken(created.token).verificationId).toBe(created.verificationId);
      expect((await client.botCheck.getResult(created.token)).score).toBeGreaterThanOrEqual(0.8);
    } finally {
      await client.close();
    }
  });

  it('throws DevServerRequiredError against a server without the admin API', async () => {
    const real = await startServer((_req, res) => {
      res.writeHead(404);
      res.end();
    });
    const client = testClient(real.url);
    try {
      expect(await failure(createDevVerification(client))).toBeInstanceOf(DevServerRequiredError);
    } finally {
      await client.close();
      await real.close();
    }
  });
});
