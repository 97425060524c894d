import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, toRequest } from '../../examples/validate-customers.js';
import { SvcClient } from '../../src/client.js';
import { DEMO } from '../../src/server/fixtures.js';
import { ROOT } from '../helpers/build.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
let client: SvcClient;

beforeAll(() => {
  client = new SvcClient({ baseUrl: server().url, apiKey: DEMO.projectKey, maxRetries: 0 });
});
afterAll(() => client.close());

async function run() {
  const lines: string[] = [];
  const summary = await main({ client, print: (line) => lines.push(line) });
  return { summary, lines };
}

describe('example validate-customers.ts: one request per row, summary by outcome', () => {
  it('validates examples/data/customers.csv against the reference server', async () => {
    const { summary, lines } = await run();
    expect(summary.rows).toBe(18);
    expect(summary.byOutcome).toEqual({ VALID: 14, INVALID: 2, NOT_SUPPORTED: 1, REJECTED: 1 });
    expect(summary.toCheck.map((r) => [r.row, r.customerId, r.outcome])).toEqual([
      [15, 'C-1015', 'INVALID'],
      [16, 'C-1016', 'INVALID'],
      [17, 'C-1017', 'NOT_SUPPORTED'],
      [18, 'C-1018', 'REJECTED'],
    ]);
    // Strategy single: one POST /validations per row that passed the local check, none for row 18.
    const posts = server()
      .admin.requests()
      .filter((r) => r.method === 'POST' && r.path.endsWith('/validations'));
    expect(posts).toHaveLength(17);
    expect(lines[0]).toBe('18 customers validated');
    expect(lines).toContain('  VALID                14');
    expect(lines.at(-1)).toMatch(/^ {2}row 18 \(C-1018\): REJECTED: rawValue must be at most 20 characters/);
  });

  it('an asynchronous registry leaves rows PENDING', async () => {
    server().admin.setProviderMode('VIES', 'async');
    const { summary } = await run();
    expect(summary.byOutcome.PENDING).toBeGreaterThan(0);
    expect(summary.toCheck.filter((r) => r.outcome === 'PENDING').length).toBe(summary.byOutcome.PENDING);
  });

  it('rows that cannot be sent are FAILED, not silently dropped', async () => {
    server().admin.setFaults({ rate: 1, kinds: ['status500'], seed: 1 });
    const { summary } = await run();
    expect(summary.rows).toBe(18);
    expect(summary.byOutcome).toEqual({ FAILED: 17, REJECTED: 1 });
  });
});

describe('example validate-customers.ts: CSV columns map to the request', () => {
  it('vatId, companyName, city and metadata.customerId', () => {
    expect(
      toRequest({
        countryCode: 'de ',
        vatId: 'DE136695976',
        companyName: 'Nordlicht Logistics GmbH',
        city: 'Berlin',
        'metadata.customerId': 'C-1001',
      }),
    ).toEqual({
      countryCode: 'DE',
      rawValue: 'DE136695976',
      companyName: 'Nordlicht Logistics GmbH',
      address: { city: 'Berlin' },
      customerMetadata: { customer_id: 'C-1001' },
    });
    expect(toRequest({ countryCode: 'AT', vatId: 'ATU13585627', city: '' })).toEqual({
      countryCode: 'AT',
      rawValue: 'ATU13585627',
    });
  });
});

describe('example validate-customers.ts runs as a script', () => {
  it('prints the summary and exits 0, configured by SVC_BASE_URL and SVC_API_KEY', async () => {
    // Node 20 cannot run TypeScript: compile the example as it is, next to node_modules.
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.tmp', 'example-'));
    try {
      const script = join(dir, 'validate-customers.mjs');
      await build({
        entryPoints: [fileURLToPath(new URL('../../examples/validate-customers.ts', import.meta.url))],
        bundle: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        outfile: script,
        logLevel: 'silent',
      });
      const csv = join(ROOT, 'examples', 'data', 'customers.csv');
      // Rejects on a non-zero exit, so resolving means exit 0.
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, csv], {
        env: { PATH: process.env.PATH, SVC_BASE_URL: server().url, SVC_API_KEY: DEMO.projectKey },
      });
      expect(stderr).toBe('');
      expect(stdout).toContain('18 customers validated');
      expect(stdout).toContain('row 17 (C-1017): NOT_SUPPORTED');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
