import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormApp, formPage } from '../../examples/botcheck-form.js';
import { SvcClient } from '../../src/client.js';
import { DEMO } from '../../src/server/fixtures.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let app: Server;
let base = '';
let client: SvcClient;

beforeAll(async () => {
  client = new SvcClient({ baseUrl: server().url, apiKey: DEMO.projectKey });
  app = createFormApp(client, server().url).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => app.once('listening', resolve));
  base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => app.close(resolve));
  await client.close();
});

describe('example botcheck-form.ts: the form loads the widget from the dev server', () => {
  it('serves the form with the script of the dev server and the requested outcome', async () => {
    const html = await (await fetch(`${base}/?outcome=challenge`)).text();
    expect(html).toContain(`<script src="${server().url}/__widget.js"></script>`);
    expect(html).toContain('<svc-captcha outcome="challenge"></svc-captcha>');
    expect(html).toMatch(/<form method="post" action="\/contact">/);
  });

  it('an unknown or hostile outcome falls back to pass; a hostile server URL is escaped', async () => {
    const html = await (
      await fetch(`${base}/?outcome=${encodeURIComponent('"><script>alert(1)</script>')}`)
    ).text();
    expect(html).toContain('<svc-captcha outcome="pass">');
    expect(html).not.toContain('alert(1)');
    const page = formPage('http://x"><script>alert(1)</script>', 'pass');
    expect(page).not.toContain('"><script>alert');
  });

  it('a token the widget endpoint made is accepted by POST /contact (multi-stage: challenge is 401)', async () => {
    const mint = async (outcome: string) => {
      const res = await fetch(`${server().url}/__widget/verifications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ outcome }),
      });
      return ((await res.json()) as { token: string }).token;
    };
    const send = async (token: string) =>
      (
        await fetch(`${base}/contact`, {
          method: 'POST',
          body: new URLSearchParams({ 'svc-verification-token': token }),
        })
      ).status;
    expect(await send(await mint('pass'))).toBe(200);
    expect(await send(await mint('challenge'))).toBe(401);
    expect(await send(await mint('fail'))).toBe(403);
  });
});
