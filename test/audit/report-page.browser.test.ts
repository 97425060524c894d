import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportPage } from '../../src/audit/reports/html.js';
import { buildReport } from '../../src/audit/reports/report.js';
import { signInsReport } from '../../src/audit/reports/sign-ins.js';
import type { AuditEvent } from '../../src/audit/schemas.js';
import { SvcClient } from '../../src/client.js';
import { chromiumMissing, launchChromium } from '../helpers/browser.js';
import { ROOT } from '../helpers/build.js';
import { useReferenceServer } from '../helpers/server.js';

// The report page of `svc audit report --html` (#43 item 4) opened where it is read: in Chromium,
// from a file, offline. The chart has a bar per day, the table every row, no request leaves the
// page and nothing is logged as an error. A screenshot goes to .tmp/artifacts for the docs.

const server = useReferenceServer();
const T0 = Date.parse('2026-03-10T12:00:00.000Z');
let browser: Browser;
let dir: string;

beforeAll(async () => {
  if (chromiumMissing) return;
  browser = await launchChromium();
  dir = mkdtempSync(join(tmpdir(), 'svc-report-page-'));
}, 180_000);
afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(chromiumMissing)('the report page in Chromium: a bar per day, every row, offline', () => {
  it('sign-ins over nine days of the reference server', async () => {
    server().admin.freezeClock(true);
    server().admin.setNow(T0);
    server().admin.addAuditEvents({
      count: 2000,
      scope: 'project',
      from: new Date(T0 - 9 * 86_400_000 + 60_000).toISOString(),
      to: new Date(T0 - 60_000).toISOString(),
    });
    const client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
    const events: AuditEvent[] = [];
    for await (const e of client.audit.events({
      from: new Date(T0 - 10 * 86_400_000).toISOString(),
      to: new Date(T0).toISOString(),
    }))
      events.push(e);
    await client.close();
    const report = await buildReport(signInsReport(), events);
    expect(report.perDay.length).toBeGreaterThanOrEqual(9);
    const file = join(dir, 'sign-ins.html');
    writeFileSync(
      file,
      reportPage(report, { lines: ['read audit/: head manifest-000001.json; whole'], whole: true }, 'now'),
    );

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const url = pathToFileURL(file).href;
    await page.goto(url);
    const bars = await page.locator('svg.chart rect.bar').count();
    expect(bars).toBe(report.perDay.length);
    // Drawn: each bar with a height, the tallest the day with the most events.
    const heights = await page
      .locator('svg.chart rect.bar')
      .evaluateAll((rects) =>
        rects.map((r) => (r as unknown as { getBBox(): { height: number } }).getBBox().height),
      );
    expect(heights.every((h) => h > 0)).toBe(true);
    const most = Math.max(...report.perDay.map((d) => d.events));
    expect(heights[report.perDay.findIndex((d) => d.events === most)]).toBe(Math.max(...heights));
    // Drawn to scale: the chart's labels as wide as they are tall (the same scale on both axes).
    const scale = await page.locator('svg.chart').evaluate((svg) => {
      const m = (svg as unknown as { getScreenCTM(): { a: number; d: number } }).getScreenCTM();
      return { x: m.a, y: m.d };
    });
    expect(scale.x).toBeCloseTo(scale.y, 6);
    expect(await page.locator('tbody tr').count()).toBe(report.rows.length);
    expect(await page.locator('footer').textContent()).toMatch(/head manifest-000001\.json/);
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(ROOT, '.tmp', 'artifacts', 'report-sign-ins.png'), fullPage: false });
    await page.close();
  });
});
