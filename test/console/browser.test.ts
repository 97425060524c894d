import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFormApp } from '../../examples/botcheck-form.js';
import { SvcClient } from '../../src/client.js';
import { DEMO } from '../../src/server/fixtures.js';
import { createReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { chromiumMissing, launchChromium } from '../helpers/browser.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';

const ARTIFACTS = join(ROOT, '.tmp', 'artifacts');

let server: ReferenceServer;
let client: SvcClient;
let app: Server;
let formUrl = '';
let browser: Browser;

beforeAll(async () => {
  if (chromiumMissing) return;
  ensureBuilt();
  server = await createReferenceServer();
  client = new SvcClient({ baseUrl: server.url, apiKey: DEMO.projectKey });
  app = createFormApp(client, server.url).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => app.once('listening', resolve));
  formUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`;
  browser = await launchChromium();
}, 180_000);
afterEach(() => {
  if (chromiumMissing) return;
  server.admin.reset();
  client.botCheck.clearVerifyCache();
});
afterAll(async () => {
  if (chromiumMissing) return;
  await browser?.close();
  await new Promise((resolve) => app?.close(resolve));
  await client?.close();
  await server?.close();
});

/** Scripts run in the page (strings: the test program has no DOM types). */
const inPage = {
  /** Resolves with the `detail` of the next `type` event on the document. */
  once: (type: string) =>
    `new Promise((resolve) => document.addEventListener(${JSON.stringify(type)}, (e) => resolve(e.detail), { once: true }))`,
  /** Adds a hidden token input with `token` to the form. */
  addToken: (token: string) =>
    `(() => { const i = document.createElement('input'); i.type = 'hidden'; i.name = 'svc-verification-token'; i.value = ${JSON.stringify(token)}; document.querySelector('form').append(i); })()`,
};

/** Opens the form for `outcome`, clicks the widget and returns the token it put into the form. */
async function solve(page: Page, outcome: string): Promise<{ token: string; eventToken: string }> {
  await page.goto(`${formUrl}?outcome=${outcome}`);
  const solved = page.evaluate<string>(inPage.once('captchaSolved'));
  await page.click('svc-captcha');
  const eventToken = await solved;
  const token = await page.inputValue('input[name="svc-verification-token"]');
  return { token, eventToken };
}

/** Submits the form natively and returns the backend's status and JSON answer. */
async function submit(page: Page): Promise<{ status: number; body: unknown }> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
  return { status: response?.status() ?? 0, body: JSON.parse((await page.textContent('body')) ?? '') };
}

describe.skipIf(chromiumMissing)(
  'widget: a form with <svc-captcha> and the Express example behind it',
  () => {
    it('pass is accepted once; the same token again is rejected', async () => {
      const page = await browser.newPage();
      const { token, eventToken } = await solve(page, 'pass');
      expect(token).toMatch(/^[A-Za-z0-9+/=]{40,}$/);
      expect(eventToken).toBe(token);
      expect(await submit(page)).toEqual({
        status: 200,
        body: { received: ['message'], decision: 'accept' },
      });

      await page.goto(formUrl);
      await page.evaluate(inPage.addToken(token));
      expect(await submit(page)).toEqual({ status: 403, body: { decision: 'reject' } });
      await page.close();
    });

    it('bot is rejected; challenge gets the extra-check answer', async () => {
      const page = await browser.newPage();
      await solve(page, 'bot');
      expect(await submit(page)).toEqual({ status: 403, body: { decision: 'reject' } });
      await solve(page, 'challenge');
      expect(await submit(page)).toEqual({ status: 401, body: { decision: 'challenge' } });
      await page.close();
    });

    it('the widget creates the hidden input only once and reuses it for a second solve', async () => {
      const page = await browser.newPage();
      await solve(page, 'pass');
      await page.click('svc-captcha');
      await page.waitForSelector('svc-captcha[data-state="solved"]');
      expect(await page.locator('input[name="svc-verification-token"]').count()).toBe(1);
      await page.close();
    });

    it('a page from another origin gets no token: the endpoint refuses it and the widget says so', async () => {
      // *.localhost is loopback to Chromium, so the browser's own Private Network Access rules let
      // the script load and the server's origin rule is what refuses the page.
      const page = await browser.newPage();
      await page.goto(`${formUrl.replace('127.0.0.1', 'attacker.localhost')}?outcome=pass`);
      await page.waitForSelector('svc-captcha[data-state="idle"]');
      const failed = page.evaluate(inPage.once('captchaError'));
      await page.click('svc-captcha');
      await failed;
      expect(await page.getAttribute('svc-captcha', 'data-state')).toBe('error');
      expect(await page.locator('input[name="svc-verification-token"]').count()).toBe(0);
      expect(server.admin.consoleEvents().filter((e) => e.type === 'verification')).toEqual([]);
      await page.close();
    });
  },
);

describe.skipIf(chromiumMissing)('console: live by Server-Sent Events, newest first', () => {
  it('shows the verification and the backend result fetch within 1 s of the submit, without a reload', async () => {
    const consolePage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await consolePage.goto(`${server.url}/__console`);
    await consolePage.waitForSelector('.connection[data-state="live"]');
    const form = await browser.newPage();
    const { token } = await solve(form, 'pass');
    const verificationId = (JSON.parse(Buffer.from(token, 'base64').toString()) as { verificationId: string })
      .verificationId;
    expect((await submit(form)).status).toBe(200);
    const submittedAt = Date.now();
    // Locator waits, not waitForFunction: the console's CSP (script-src 'self') refuses the eval
    // that Playwright's polling of a string predicate needs.
    await consolePage
      .locator(`[data-verification-id="${verificationId}"][data-state="used"]`)
      .waitFor({ timeout: 1000 });
    await consolePage
      .locator('.panel-requests tbody tr', { hasText: `/captcha/v2/verifications/${verificationId}/results` })
      .first()
      .waitFor({ timeout: 1000 });
    expect(Date.now() - submittedAt).toBeLessThan(1000);
    const card = consolePage.locator(`[data-verification-id="${verificationId}"]`);
    expect(await card.textContent()).toContain('0 of 1 fetch left');
    expect(await card.locator('.token').textContent()).toBe(token);
    const firstRow = consolePage.locator('.panel-requests tbody tr').first();
    expect(await firstRow.textContent()).toContain('200');
    expect(await firstRow.textContent()).toContain('project demo');

    // Fill the other views a little for the screenshot.
    await client.tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' });
    await client.tax.validate({ countryCode: 'US', rawValue: '12-3456789' });
    server.admin.addAuditEvents({ count: 250 });
    server.admin.setProviderMode('HMRC', 'unavailable');
    await consolePage.click('button[data-outcome="unfinished"]');
    await consolePage.click('button[data-outcome="challenge"]');
    await consolePage.waitForSelector('.panel-tax li:nth-child(2)');
    await consolePage.waitForSelector('.card[data-state="unfinished"]');
    expect(await consolePage.inputValue('#provider-HMRC')).toBe('unavailable');
    mkdirSync(ARTIFACTS, { recursive: true });
    await consolePage.screenshot({ path: join(ARTIFACTS, 'console-1280x800.png') });
    await form.close();
    await consolePage.close();
  });

  it('is usable by keyboard: create an unfinished verification, then finish it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/__console`);
    await page.waitForSelector('.connection[data-state="live"]');
    await page.focus('button[data-outcome="unfinished"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.card[data-state="unfinished"] button.finish');
    await page.focus('.card[data-state="unfinished"] button.finish');
    await page.keyboard.press('Space');
    await page.waitForSelector('.card[data-state="ready"]');
    await page.keyboard.press('Shift+Tab');
    const focusVisible = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(focusVisible).not.toBe('none');
    await page.close();
  });

  it('inserts request paths as text: a path with an <img onerror> runs no script', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/__console`);
    await page.waitForSelector('.connection[data-state="live"]');
    const hostile = '/<img src=x onerror="window.__pwned=1">';
    await fetch(server.url + encodeURI(hostile));
    await page.locator('.panel-requests tbody tr .path', { hasText: hostile }).first().waitFor();
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('.panel-requests img').count()).toBe(0);
    await page.close();
  });
});
