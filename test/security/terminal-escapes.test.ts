import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_VERIFICATION_IDS as IDS } from '../../src/botcheck/test-ids.js';
import { DEMO, TEST_KEY } from '../../src/server/fixtures.js';
import { runSvc } from '../helpers/cli.js';
import { useReferenceServer } from '../helpers/server.js';

/**
 * What a hostile upstream sends in every string it controls: an OSC that retitles the window, a
 * CSI that clears the screen and homes the cursor, a fake verdict, a one-byte C1 CSI (U+009B), a
 * bidi override and a bell.
 */
const PAYLOAD = '\x1b]0;pwned\x07\x1b[2J\x1b[HACCEPT\u009b31m\u202egnp.exe\x07';

/** Raw terminal controls: C0 except newline, DEL, C1, and the bidi controls. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const server = useReferenceServer();

/**
 * A proxy in front of the reference server that rewrites strings of the answers: the bot-check
 * result (current and legacy), every audit event and the paging cursor, and turns
 * a request for the id `hostile` into a problem+json 404 with the payload in `detail`.
 */
let proxy: Server;
let proxyUrl = '';
beforeAll(async () => {
  proxy = createServer(async (req, res) => {
    if (req.url?.endsWith('/hostile')) {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: PAYLOAD }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'svc-authorization', 'content-type']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = await fetch(server().url + (req.url ?? '/'), { method: req.method, headers });
    const body = (await upstream.json()) as Record<string, unknown>;
    if (upstream.ok) tamper(req.url ?? '', body);
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

function tamper(url: string, body: Record<string, unknown>): void {
  if (url.includes('/captcha/v2/')) Object.assign(body, { decisionType: PAYLOAD, decisionAction: PAYLOAD });
  else if (url.includes('/assessments')) Object.assign(body, { reason: PAYLOAD, mode: PAYLOAD });
  else if (Array.isArray(body.content)) {
    for (const event of body.content as Array<Record<string, unknown>>) {
      event.type = PAYLOAD;
      event.actor = { type: PAYLOAD };
      event.subject = { kind: 'x', id: PAYLOAD, label: PAYLOAD };
    }
    body.nextCursor = PAYLOAD;
  }
}

const env = (key: string = DEMO.projectKey) => ({ SVC_BASE_URL: proxyUrl, SVC_API_KEY: key });
const svc = (args: string[], key?: string) => runSvc(args, { env: env(key) });

function expectNoRawControls(text: string): void {
  expect(text).not.toMatch(RAW_CONTROL);
  expect(text).toContain('\\x1b]0;pwned\\x07');
  expect(text).toContain('\\x9b31m');
}

describe('server strings reach the terminal escaped in tables and stderr lines', () => {
  it('captcha result -o table: decisionType and decisionAction are escaped', async () => {
    const run = await svc(['-o', 'table', 'captcha', 'result', IDS.passed], TEST_KEY);
    expect(run.code).not.toBe(2);
    expectNoRawControls(run.stdout);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
  });

  it('captcha legacy -o table: reason and mode are escaped', async () => {
    const run = await svc(['-o', 'table', 'captcha', 'legacy', IDS.passed], TEST_KEY);
    expect(run.code).not.toBe(2);
    expectNoRawControls(run.stdout);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
  });

  it('audit list -o table: type, actor, subject escaped; the paging line on stderr too', async () => {
    const now = server().admin.now();
    server().admin.addAuditEvents({
      count: 3,
      from: new Date(now - 60_000).toISOString(),
      to: new Date(now).toISOString(),
    });
    const run = await svc([
      '-o',
      'table',
      'audit',
      'list',
      '--page-size',
      '2',
      '--from',
      new Date(now - 3_600_000).toISOString(),
    ]);
    expect(run.code).toBe(0);
    expectNoRawControls(run.stdout);
    expectNoRawControls(run.stderr);
  });

  it('a problem+json detail in the error line is escaped', async () => {
    const run = await svc(['results', 'get', 'hostile']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    // The library may already quote the detail (`\u001b`); either way no raw byte is left.
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stderr).toMatch(/(\\x1b|\\u001b)\]0;pwned/);
  });
});

describe('JSON output stays exact', () => {
  it('captcha result -o json carries the strings as sent', async () => {
    const run = await svc(['-o', 'json', 'captcha', 'result', IDS.passed], TEST_KEY);
    const { result } = JSON.parse(run.stdout) as { result: Record<string, unknown> };
    expect(result.decisionType).toBe(PAYLOAD);
    expect(result.decisionAction).toBe(PAYLOAD);
  });

  it('captcha legacy -o json carries reason and mode as sent', async () => {
    const run = await svc(['-o', 'json', 'captcha', 'legacy', IDS.passed], TEST_KEY);
    const { result } = JSON.parse(run.stdout) as { result: Record<string, unknown> };
    expect(result.reason).toBe(PAYLOAD);
    expect(result.mode).toBe(PAYLOAD);
  });

  it('audit list -o json and -o csv carry the event strings as sent', async () => {
    const now = server().admin.now();
    server().admin.addAuditEvents({
      count: 2,
      from: new Date(now - 60_000).toISOString(),
      to: new Date(now).toISOString(),
    });
    const from = new Date(now - 3_600_000).toISOString();
    const json = await svc(['-o', 'json', 'audit', 'list', '--from', from]);
    const page = JSON.parse(json.stdout) as { content: Array<{ type: string }> };
    expect(page.content.map((e) => e.type)).toEqual(page.content.map(() => PAYLOAD));
    const csv = await svc(['-o', 'csv', 'audit', 'list', '--from', from]);
    expect(csv.stdout).toContain(PAYLOAD);
  });
});

describe('file strings reach stderr escaped', () => {
  it('a CSV column name with escape sequences, in the batch warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-escapes-'));
    try {
      writeFileSync(join(dir, 'in.csv'), `countryCode,vatId,${PAYLOAD}\nDE,136695976,x\n`);
      const run = await runSvc(['--sandbox', 'batch', join(dir, 'in.csv'), '--strategy', 'single']);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^warning: ignoring column/m);
      expectNoRawControls(run.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
