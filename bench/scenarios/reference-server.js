// Reference server throughput: validations/s (POST /taxvalidation/v1/validations) and audit
// pages/s (GET /platform/v1/events, pageSize 100, by cursor) against a node:http hello-world server in its own
// process, all hit by the same undici load generator, 32 in flight. Report only.
import { Agent, request } from 'undici';
import { loadLibrary } from '../lib/available.js';
import { germanVatIds } from '../lib/batch-input.js';
import { closedLoop } from '../lib/load.js';
import { reportRow, unavailableRow } from '../lib/rows.js';
import { startHelloServer, startServer } from '../lib/server.js';
import { interleave, medianOf } from '../lib/stats.js';

const KEY = 'ak_demo_project';
const IN_FLIGHT = 32;
const AUDIT_EVENTS = 10_000;
const AUDIT_PAGE_SIZE = 100;

export const name = 'reference-server';

/**
 * Every `nextCursor` of a walk through the range, so the load can ask for any page by cursor (the
 * way clients page; `page=N` costs the server a skip).
 * @param {Agent} agent
 * @param {string} baseUrl
 * @param {Record<string, string>} headers
 * @param {number} pageSize
 * @returns {Promise<string[]>}
 */
async function cursorChain(agent, baseUrl, headers, pageSize) {
  const cursors = [];
  let cursor = null;
  do {
    const query = new URLSearchParams({ pageSize: String(pageSize) });
    if (cursor) query.set('cursor', cursor);
    const res = await request(`${baseUrl}/platform/v1/events?${query}`, { headers, dispatcher: agent });
    const page = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`GET /platform/v1/events answered ${res.statusCode}`);
    cursor = page.nextCursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return cursors;
}

/**
 * One call per request; throws unless the status is the expected one.
 * @param {Agent} agent
 * @param {string} url
 * @param {number} expect
 * @param {{ method?: string, headers?: Record<string, string>, body?: string }} [init]
 */
async function hit(agent, url, expect, init = {}) {
  const res = await request(url, { ...init, dispatcher: agent });
  const text = await res.body.text();
  if (res.statusCode !== expect) throw new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 200)}`);
}

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  // Each timed load stops at its request cap or its time limit, whichever comes first; audit pages
  // are heavier (100 events each), so their cap is lower.
  const total = quick ? 5_000 : 20_000;
  const auditTotal = quick ? 2_000 : 5_000;
  const durationMs = quick ? 700 : 5_000;
  const rounds = quick ? 1 : 3;
  const { lib, why } = await loadLibrary();
  if (!lib?.precheck) return { rows: [unavailableRow('reference server', 'report', why ?? '')], raw: {} };
  // A distinct valid number per request, so every validation is new work for the server.
  const ids = [...germanVatIds(total * rounds + 2_000, lib.precheck, 11)];
  let nextId = 0;

  const server = await startServer({ seedAuditEvents: 0 });
  const hello = await startHelloServer();
  const agent = new Agent({ keepAliveTimeout: 4000 });
  try {
    await server.admin('/audit-events', { count: AUDIT_EVENTS, scope: 'project' });
    const auth = { authorization: `Bearer ${KEY}`, accept: 'application/json' };
    const validationsUrl = `${server.url}/taxvalidation/v1/validations`;
    const cursors = await cursorChain(agent, server.url, auth, AUDIT_PAGE_SIZE);
    const pageUrl = (i) => {
      const cursor = i % (cursors.length + 1);
      const query = cursor === 0 ? '' : `&cursor=${encodeURIComponent(cursors[cursor - 1])}`;
      return `${server.url}/platform/v1/events?pageSize=${AUDIT_PAGE_SIZE}${query}`;
    };
    /** @type {Record<string, (n: number, ms?: number) => ReturnType<typeof closedLoop>>} */
    const loads = {
      validations: (n, ms) =>
        closedLoop({
          total: n,
          durationMs: ms,
          inFlight: IN_FLIGHT,
          call: () =>
            hit(agent, validationsUrl, 201, {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: JSON.stringify({ countryCode: 'DE', rawValue: ids[nextId++ % ids.length] }),
            }),
        }),
      'audit pages': (n, ms) =>
        closedLoop({
          total: n,
          durationMs: ms,
          inFlight: IN_FLIGHT,
          call: (i) => hit(agent, pageUrl(i), 200, { headers: auth }),
        }),
      'hello world': (n, ms) =>
        closedLoop({ total: n, durationMs: ms, inFlight: IN_FLIGHT, call: () => hit(agent, hello.url, 200) }),
    };
    // Warm-up of all three (JIT on both sides, sockets) before timing.
    for (const load of Object.values(loads)) await load(quick ? 1_000 : 2_000, quick ? 300 : 1_000);
    const timed = Object.fromEntries(
      Object.entries(loads).map(([k, load]) => [
        k,
        () => load(k === 'audit pages' ? auditTotal : total, durationMs),
      ]),
    );
    const results = await interleave(rounds, timed, log);
    const fig = (k, unit) => ({ name: k, value: medianOf(results[k], 'perSecond'), unit });
    const helloFig = fig('hello world', 'req/s');
    const row = (k, unit) => {
      const ours = fig(k, unit);
      return reportRow({
        scenario: `reference server ${k}, ${IN_FLIGHT} in flight, ${durationMs / 1000} s`,
        ours,
        baselines: [helloFig],
        ratio: ours.value && helloFig.value ? ours.value / helloFig.value : null,
        note: `p50 ${medianOf(results[k], 'p50Ms').toFixed(2)} ms vs hello ${medianOf(results['hello world'], 'p50Ms').toFixed(2)} ms`,
      });
    };
    return {
      rows: [row('validations', 'validations/s'), row('audit pages', 'pages/s')],
      raw: {
        total,
        auditTotal,
        durationMs,
        rounds,
        inFlight: IN_FLIGHT,
        auditPageSize: AUDIT_PAGE_SIZE,
        results,
      },
    };
  } finally {
    await agent.close();
    await Promise.all([server.stop(), hello.stop()]);
  }
}
