import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, assert, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { type ProjectSyncResult, syncAuditProjects } from '../../src/node/audit-sync/projects.js';
import { runSvc } from '../helpers/cli.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'svc-audit-projects-'));
  server().admin.freezeClock(true);
  server().admin.setNow(T0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A project made over HTTP, with `count` events of its own. */
async function project(
  name: string,
  count: number,
  plan?: 'basic',
): Promise<{ projectId: string; apiKey: string }> {
  const made = await rawRequest(server().url, 'POST', '/__admin/projects', {
    body: { name, ...(plan && { plan }) },
  });
  expect(made.status).toBe(201);
  const body = made.body as { projectId: string; apiKey: string };
  if (count > 0) {
    const added = await rawRequest(server().url, 'POST', '/__admin/audit-events', {
      body: { count, projectId: body.projectId, from: iso(T0 - 2 * HOUR), to: iso(T0 - HOUR) },
    });
    expect(added.status).toBe(201);
  }
  return body;
}

describe('many projects in one run: each its own key and directory, the worst outcome wins', () => {
  it('the library syncs every project, 2 at a time, and one 402 stops no other', async () => {
    const made = [
      await project('a', 5),
      await project('b', 7),
      await project('c', 0, 'basic'),
      await project('d', 9),
    ];
    const ended: ProjectSyncResult[] = [];
    const total = await syncAuditProjects(
      made.map((p, i) => ({ name: `p${i}`, dir: join(root, `p${i}`), apiKey: p.apiKey })),
      {
        parallel: 2,
        client: (p) => new SvcClient({ baseUrl: server().url, apiKey: p.apiKey }),
        sync: { since: iso(T0 - 3 * HOUR) },
        onProject: (r) => ended.push(r),
      },
    );
    expect(total).toEqual({ projects: 4, ok: 3, incomplete: 0, failed: 1, interrupted: 0, worst: 'failed' });
    expect(ended.find((r) => r.name === 'p2')?.error).toMatch(/402|audit log/);
    expect(
      ended
        .filter((r) => r.outcome === 'ok')
        .map((r) => r.result?.events)
        .sort(),
    ).toEqual([5, 7, 9]);
    expect(readdirSync(join(root, 'p0'))).toContain('manifest-000001.json');
    await expect(
      syncAuditProjects([], { parallel: 0, client: () => assert.fail('no project') }),
    ).rejects.toThrow(/parallel/);
  });

  it('a project made with POST /__admin/projects sees only its own events; projectId excludes scope agency', async () => {
    const a = await project('a', 3);
    const b = await project('b', 4);
    const events = await rawRequest(
      server().url,
      'GET',
      `/platform/v1/events?from=${iso(T0 - 3 * HOUR)}&to=${iso(T0)}`,
      {
        key: a.apiKey,
      },
    );
    expect((events.body as { totalElements: number }).totalElements).toBe(3);
    expect(a.projectId).not.toBe(b.projectId);
    const both = await rawRequest(server().url, 'POST', '/__admin/audit-events', {
      body: { count: 1, projectId: a.projectId, scope: 'agency' },
    });
    expect(both.status).toBe(422);
    expect((await rawRequest(server().url, 'POST', '/__admin/projects', { body: { name: '' } })).status).toBe(
      422,
    );
  });
});

describe('svc audit sync --projects: a bad projects file is a usage error (exit 2), nothing is sent', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    [
      'a key in the file',
      [{ name: 'a', dir: 'a', keyEnv: 'SVC_K', apiKey: 'ak_secret' }],
      /keys never go in the file/,
    ],
    [
      'an unset key variable',
      [{ name: 'a', dir: 'a', keyEnv: 'SVC_UNSET_KEY_VAR' }],
      /SVC_UNSET_KEY_VAR holds no key/,
    ],
    [
      'one directory twice',
      [
        { name: 'a', dir: 'x', keyEnv: 'SVC_K' },
        { name: 'b', dir: './x', keyEnv: 'SVC_K' },
      ],
      /used twice/,
    ],
    ['a name with a slash', [{ name: '../a', dir: 'a', keyEnv: 'SVC_K' }], /name/],
    ['an empty list', [], /projects/],
  ];
  it.each(cases)('%s', async (_, content, message) => {
    const file = join(root, 'projects.json');
    writeFileSync(file, JSON.stringify(content));
    const run = await runSvc(['audit', 'sync', '--projects', file, '--base-url', server().url], {
      env: { SVC_K: 'ak_demo_project' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain('ak_secret');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('not JSON, --dir with --projects, --parallel 0', async () => {
    const file = join(root, 'projects.json');
    writeFileSync(file, 'not json');
    const base = ['audit', 'sync', '--base-url', server().url];
    expect((await runSvc([...base, '--projects', file])).stderr).toMatch(/is not JSON/);
    writeFileSync(file, JSON.stringify([{ name: 'a', dir: 'a', keyEnv: 'SVC_K' }]));
    expect(
      (await runSvc([...base, '--projects', file, '--dir', root], { env: { SVC_K: 'ak_demo_project' } }))
        .code,
    ).toBe(2);
    expect(
      (await runSvc([...base, '--projects', file, '--parallel', '0'], { env: { SVC_K: 'ak_demo_project' } }))
        .code,
    ).toBe(2);
  });
});

describe('svc audit sync --projects: keyEnv names only an SVC_ variable holding an API key, checked before any request', () => {
  const requests = async () =>
    ((await rawRequest(server().url, 'GET', '/__admin/requests')).body as { requests: unknown[] }).requests
      .length;

  const cases: Array<[string, string, Record<string, string>, RegExp]> = [
    ['PATH', 'PATH', {}, /b: keyEnv: a variable named SVC_/],
    [
      'another secret of the job',
      'AWS_SECRET_ACCESS_KEY',
      { AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG' },
      /b: keyEnv/,
    ],
    ['a lower-case svc_ name', 'svc_key', { svc_key: 'ak_demo_project' }, /b: keyEnv/],
    [
      'an SVC_ variable that holds no API key',
      'SVC_TOKEN',
      { SVC_TOKEN: 'ghp_0123456789abcdef' },
      /b: the variable SVC_TOKEN does not hold an API key \(ak_\.\.\.\)/,
    ],
  ];
  it.each(cases)(
    '%s: exit 2, one line naming the entry, no request, the value never shown',
    async (_, keyEnv, env, message) => {
      const file = join(root, 'projects.json');
      writeFileSync(
        file,
        JSON.stringify([
          { name: 'a', dir: 'a', keyEnv: 'SVC_K' },
          { name: 'b', dir: 'b', keyEnv },
        ]),
      );
      const before = await requests();
      const run = await runSvc(['audit', 'sync', '--projects', file, '--base-url', server().url], {
        env: { SVC_K: 'ak_demo_project', ...env },
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      for (const value of Object.values(env)) {
        expect(run.stderr).not.toContain(value);
        expect(run.stdout).not.toContain(value);
      }
      expect(await requests()).toBe(before);
      expect(readdirSync(root)).toEqual(['projects.json']);
    },
  );
});
