import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../src/doctor.js';
import { ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const configHome = mkdtempSync(join(tmpdir(), 'svc-doctor-'));
afterAll(() => rmSync(configHome, { recursive: true, force: true }));
const env = (key?: string, extra: Record<string, string> = {}) => ({
  SVC_BASE_URL: server().url,
  XDG_CONFIG_HOME: configHome,
  ...(key !== undefined && { SVC_API_KEY: key }),
  ...extra,
});

interface Report {
  ok: boolean;
  apis: Array<{
    api: string;
    key: string;
    status: number | null;
    reachable: boolean;
    explanation: string;
    paymentRequiredCause?: string;
  }>;
  settings: Array<{ name: string; value: string; source: string }>;
}
const verdicts = (r: Report) => Object.fromEntries(r.apis.map((a) => [a.api, `${a.key} ${a.status}`]));
const setting = (r: Report, name: string) => r.settings.find((s) => s.name === name);

async function doctor(key?: string, extra: Record<string, string> = {}, args: string[] = []) {
  const run = await runSvc([...args, 'doctor', '-o', 'json'], { env: env(key, extra) });
  return { ...run, report: JSON.parse(run.stdout) as Report };
}

describe('svc doctor: per API, does the base URL answer and is the key accepted', () => {
  it('ak_demo_project: every API accepts the key; exit 0', async () => {
    const { code, report } = await doctor('ak_demo_project');
    expect(verdicts(report)).toEqual({
      tax: 'accepted 404',
      audit: 'accepted 200',
      captcha: 'accepted 404',
      legacy: 'accepted 404',
    });
    expect(report.ok).toBe(true);
    expect(code).toBe(0);
  });

  it('ak_basic_project: the plan has no audit log (402); exit 1', async () => {
    const { code, report } = await doctor('ak_basic_project');
    expect(verdicts(report)).toMatchObject({ tax: 'accepted 404', audit: 'plan 402' });
    const audit = report.apis.find((a) => a.api === 'audit');
    // The 402's problem type names the cause; doctor reports it instead of "locked or plan".
    expect(audit?.paymentRequiredCause).toBe('feature-not-in-plan');
    expect(audit?.explanation).toBe(
      'key known, but the plan does not include this feature (402 feature-not-in-plan)',
    );
    expect(code).toBe(1);
  });

  it('ak_locked_project: 402 everywhere; exit 1', async () => {
    const { code, report } = await doctor('ak_locked_project');
    expect(verdicts(report)).toEqual({
      tax: 'plan 402',
      audit: 'plan 402',
      captcha: 'plan 402',
      legacy: 'plan 402',
    });
    expect(new Set(report.apis.map((a) => a.paymentRequiredCause))).toEqual(new Set(['project-locked']));
    expect(report.apis[0]?.explanation).toMatch(/the project is locked \(402 project-locked\)/);
    expect(code).toBe(1);
  });

  it('ak_expired_key: 403 everywhere, explained as refused; exit 1', async () => {
    const { code, report } = await doctor('ak_expired_key');
    expect(new Set(report.apis.map((a) => `${a.key} ${a.status}`))).toEqual(new Set(['invalid 403']));
    expect(report.apis[0]?.explanation).toMatch(/unknown, expired/);
    expect(code).toBe(1);
  });

  it('no key: 401 on tax and audit, 403 on the bot-check APIs, all reported as missing; exit 1', async () => {
    const { code, report } = await doctor();
    expect(verdicts(report)).toEqual({
      tax: 'missing 401',
      audit: 'missing 401',
      captcha: 'missing 403',
      legacy: 'missing 403',
    });
    expect(setting(report, 'api-key')).toMatchObject({ value: 'not set', source: '-' });
    expect(code).toBe(1);
  });

  it('a base URL that does not answer: unreachable, no status; exit 1', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const { code, report } = await doctor('ak_demo_project', {
      SVC_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(report.apis.every((a) => a.key === 'unreachable' && !a.reachable && a.status === null)).toBe(true);
    expect(code).toBe(1);
  });
});

describe('svc doctor changes nothing on the service', () => {
  it('sends only GET requests and processes no validation', async () => {
    await doctor('ak_demo_project');
    const requests = server().admin.requests();
    expect(requests).toHaveLength(4);
    expect(requests.every((r) => r.method === 'GET')).toBe(true);
    expect(server().admin.stats().validationsProcessed).toBe(0);
  });
});

describe('svc doctor: where each setting came from (flag > env > profile > default, or sandbox)', () => {
  it('env and default', async () => {
    const { report } = await doctor('ak_demo_project');
    expect(setting(report, 'base-url')).toEqual({
      name: 'base-url',
      value: server().url,
      source: 'env SVC_BASE_URL',
    });
    expect(setting(report, 'api-key')).toEqual({ name: 'api-key', value: 'set', source: 'env SVC_API_KEY' });
    expect(setting(report, 'audit-api-key')).toMatchObject({ value: 'not set (uses api-key)' });
    expect(setting(report, 'timeout')).toMatchObject({ source: 'default' });
  });

  it('flags win over env', async () => {
    const { report } = await doctor('ak_expired_key', {}, [
      '--api-key',
      'ak_demo_project',
      '--timeout',
      '4000',
    ]);
    expect(setting(report, 'api-key')?.source).toBe('flag');
    expect(setting(report, 'timeout')).toMatchObject({ value: '4000', source: 'flag' });
    expect(report.ok).toBe(true);
  });

  it('a per-API key from env is used for its API only', async () => {
    const { report } = await doctor('ak_demo_project', { SVC_AUDIT_API_KEY: 'ak_expired_key' });
    expect(setting(report, 'audit-api-key')).toMatchObject({ value: 'set', source: 'env SVC_AUDIT_API_KEY' });
    expect(verdicts(report)).toMatchObject({ tax: 'accepted 404', audit: 'invalid 403' });
  });

  it('profile', async () => {
    const profileHome = mkdtempSync(join(tmpdir(), 'svc-doctor-profile-'));
    try {
      const cfg = { XDG_CONFIG_HOME: profileHome };
      expect((await runSvc(['config', 'set', 'base-url', server().url], { env: cfg })).code).toBe(0);
      expect((await runSvc(['config', 'set', 'api-key', 'ak_demo_project'], { env: cfg })).code).toBe(0);
      const run = await runSvc(['doctor', '-o', 'json'], { env: cfg });
      const report = JSON.parse(run.stdout) as Report;
      expect(setting(report, 'base-url')?.source).toBe('profile default');
      expect(setting(report, 'api-key')?.source).toBe('profile default');
      expect(run.code).toBe(0);
    } finally {
      rmSync(profileHome, { recursive: true, force: true });
    }
  });

  it('deadline: flag > SVC_DEADLINE > profile > none', async () => {
    const profileHome = mkdtempSync(join(tmpdir(), 'svc-doctor-deadline-'));
    try {
      const cfg = {
        XDG_CONFIG_HOME: profileHome,
        SVC_BASE_URL: server().url,
        SVC_API_KEY: 'ak_demo_project',
      };
      const deadline = async (extra: Record<string, string>, args: string[] = []) => {
        const run = await runSvc([...args, 'doctor', '-o', 'json'], { env: { ...cfg, ...extra } });
        return setting(JSON.parse(run.stdout) as Report, 'deadline');
      };
      expect(await deadline({})).toEqual({ name: 'deadline', value: 'none', source: 'default' });
      expect((await runSvc(['config', 'set', 'deadline', '9000'], { env: cfg })).code).toBe(0);
      expect(await deadline({})).toMatchObject({ value: '9000', source: 'profile default' });
      expect(await deadline({ SVC_DEADLINE: '8000' })).toMatchObject({
        value: '8000',
        source: 'env SVC_DEADLINE',
      });
      expect(await deadline({ SVC_DEADLINE: '8000' }, ['--deadline', '7000'])).toMatchObject({
        value: '7000',
        source: 'flag',
      });
    } finally {
      rmSync(profileHome, { recursive: true, force: true });
    }
  });

  it('sandbox', async () => {
    const run = await runSvc(['--sandbox', 'doctor', '-o', 'json'], { env: { XDG_CONFIG_HOME: configHome } });
    const report = JSON.parse(run.stdout) as Report;
    expect(setting(report, 'base-url')?.source).toBe('sandbox');
    expect(setting(report, 'api-key')?.source).toBe('sandbox');
    expect(run.code).toBe(0);
  });
});

describe('svc doctor output: table on a TTY, json otherwise; never the key', () => {
  it('prints a table on a TTY, one row per API and per setting', async () => {
    const run = await runSvc(['doctor'], { env: env('ak_basic_project'), tty: true });
    expect(run.stdout).toMatch(/tax API\s.*ok/);
    expect(run.stdout).toMatch(/audit API\s.*FAIL/);
    expect(run.stdout).toMatch(/from env SVC_BASE_URL/);
    expect(run.code).toBe(1);
  });

  it('never prints the key', async () => {
    const run = await runSvc(['doctor', '-o', 'json'], { env: env('ak_demo_project') });
    const table = await runSvc(['doctor'], { env: env('ak_demo_project'), tty: true });
    expect(run.stdout + run.stderr + table.stdout + table.stderr).not.toContain('ak_demo_project');
  });
});

describe('library: diagnose(options) is what svc doctor runs', () => {
  it('returns the per-API verdicts without a CLI', async () => {
    const report = await diagnose({ baseUrl: server().url, apiKey: 'ak_basic_project' });
    expect(report.ok).toBe(false);
    expect(report.apis.map((a) => a.key)).toEqual(['accepted', 'plan', 'accepted', 'accepted']);
  });
});

describe('end to end through bin/svc.js', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it('svc doctor exits 0 with the demo key and 1 with an expired key', async () => {
    const ok = spawnSvc(['doctor', '-o', 'json'], env('ak_demo_project'));
    expect(await exited(ok)).toBe(0);
    expect((JSON.parse(ok.output().stdout) as Report).ok).toBe(true);
    const bad = spawnSvc(['doctor', '-o', 'json'], env('ak_expired_key'));
    expect(await exited(bad)).toBe(1);
  });
});
