import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AdminRouteInfo } from '../../src/server/route-docs.js';
import { summarizeSchema } from '../../src/server/route-docs.js';
import { ROOT } from '../helpers/build.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();

/**
 * The top-level fields a `returns` line names (`200 {a, b: [...], c?}`); undefined when it names
 * none or ends in `...` (a record shown in part).
 */
function namedFields(returns: string): { required: string[]; optional: string[] } | undefined {
  const inner = /^\d{3} \{(.*)\}$/.exec(returns)?.[1];
  if (inner === undefined || inner.trimEnd().endsWith('...')) return undefined;
  const fields: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of inner) {
    if (c === '[' || c === '{') depth += 1;
    if (c === ']' || c === '}') depth -= 1;
    if (c === ',' && depth === 0) {
      fields.push(current.trim());
      current = '';
    } else current += c;
  }
  fields.push(current.trim());
  const names = fields.map((f) => /^[\w]+\??/.exec(f)?.[0] ?? f);
  return {
    required: names.filter((n) => !n.endsWith('?')),
    optional: names.filter((n) => n.endsWith('?')).map((n) => n.slice(0, -1)),
  };
}

async function listing(): Promise<AdminRouteInfo[]> {
  const res = await rawRequest(server().url, 'GET', '/__admin');
  expect(res.status).toBe(200);
  return (res.body as { routes: AdminRouteInfo[] }).routes;
}

/** The admin routes of DESIGN.md 7, which the listing must hold at the least. */
const DESIGNED = [
  'POST /__admin/reset',
  'POST /__admin/clock',
  'POST /__admin/verifications',
  'POST /__admin/verifications/{verificationId}/finish',
  'POST /__admin/audit-events',
  'POST /__admin/audit-streams',
  'POST /__admin/providers/{provider}',
  'POST /__admin/webhook-endpoints',
  'POST /__admin/faults',
  'GET /__admin/stats',
  'GET /__admin/requests',
  'GET /__admin',
];

describe('GET /__admin lists every admin route with its method, body and an example', () => {
  it('holds every designed route, each documented, bodies with a schema and an example', async () => {
    const routes = await listing();
    const names = routes.map((r) => `${r.method} ${r.path}`);
    for (const name of DESIGNED) expect(names).toContain(name);
    for (const route of routes) {
      expect(route.summary, route.path).not.toBe('(undocumented)');
      expect(route.returns, route.path).toMatch(/^\d{3}/);
      if (route.bodySchema !== undefined) expect(route.example, route.path).toBeDefined();
    }
  });

  it('every example does what it says on this server (the curl of the listing, replayed)', async () => {
    for (const route of await listing()) {
      const url = /'(http:\/\/[^']+)'/.exec(route.curl)?.[1] ?? '';
      expect(url.startsWith(server().url), route.curl).toBe(true);
      if (/[A-Z_]{6,}/.test(new URL(url).pathname)) continue; // a placeholder id, e.g. VERIFICATION_ID
      if (route.returns.includes('text/event-stream')) continue; // a stream that never ends
      const res = await rawRequest(server().url, route.method, url.slice(server().url.length), {
        ...(route.example !== undefined && { body: route.example }),
      });
      expect(res.status, `${route.method} ${route.path}: ${JSON.stringify(res.body)}`).toBe(
        Number(route.returns.slice(0, 3)),
      );
      const named = namedFields(route.returns);
      if (named === undefined) continue;
      const body = res.body as Record<string, unknown>;
      for (const field of named.required)
        expect(body, `${route.path} answers ${field}`).toHaveProperty([field]);
      for (const key of Object.keys(body)) {
        expect([...named.required, ...named.optional], `${route.path} names ${key}`).toContain(key);
      }
    }
  });

  it('a browser gets an HTML page with every route, no script and nothing from the network', async () => {
    const res = await fetch(`${server().url}/__admin`, { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await res.text();
    for (const name of DESIGNED) expect(page).toContain(name.replace(/^\w+ /, ''));
    expect(page).not.toMatch(/<script|src=|<link/i);
  });

  it('only GET: a POST to /__admin is 405', async () => {
    const res = await rawRequest(server().url, 'POST', '/__admin', { body: {} });
    expect(res.status).toBe(405);
  });
});

/** Markdown with table padding collapsed, as Biome aligns the tables of the doc. */
const normalized = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => (line.startsWith('|') ? line.replace(/ +/g, ' ').replace(/-{3,}/g, '---') : line))
    .join('\n');

describe('docs/reference-server.md holds the listing of the code (npm run docs:admin rewrites it)', () => {
  it('the generated section equals GET /__admin in Markdown', async () => {
    const doc = readFileSync(join(ROOT, 'docs', 'reference-server.md'), 'utf8');
    const start = doc.indexOf('<!-- admin-routes:start');
    const end = doc.indexOf('<!-- admin-routes:end -->');
    expect(start).toBeGreaterThan(-1);
    const section = doc.slice(doc.indexOf('\n', start) + 1, end);
    const res = await fetch(`${server().url}/__admin`, { headers: { accept: 'text/markdown' } });
    expect(normalized(section), 'docs/reference-server.md is stale: run npm run docs:admin').toBe(
      normalized(await res.text()),
    );
  });
});

describe('body summaries: one line per JSON Schema', () => {
  it('objects, optional members, enums, arrays, unions and formats', () => {
    expect(
      summarizeSchema({
        anyOf: [
          {
            type: 'object',
            properties: {
              a: { type: 'integer' },
              b: { type: 'array', items: { enum: ['x', 'y'] } },
              c: { type: 'string', format: 'uri' },
            },
            required: ['a'],
          },
          { type: 'object', properties: { d: { type: 'boolean' } }, required: ['d'] },
        ],
      }),
    ).toBe('{a: integer, b?: ("x"|"y")[], c?: string (uri)} | {d: boolean}');
  });
});
