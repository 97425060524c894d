// Audit receive: `svc audit receive --dir DIR` takes the push of the same events the reference
// server holds, as NDJSON batches of 1000 signed per Standard Webhooks, from 4 senders at once
// over keep-alive connections (as the reference server's stream sends), each push answered only
// once its spool object is durable. Then `svc audit sync` of the same events, over that archive
// (reconciling the spool with the pull API) and into an empty one (no spool).
import { createHmac } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { missingCommand } from '../lib/available.js';
import { runNode, runNodeOk } from '../lib/child.js';
import { limitRow, ratioRow, unavailableRow, withScratch } from '../lib/rows.js';
import { SVC_BIN, withServer } from '../lib/server.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const KEY = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
const RSS_LIMIT_MB = 200;
const BATCH = 1000;
const SENDERS = 4;
const HOUR = 3600_000;

export const name = 'audit-receive';

/** A port free now (the receiver is told it: the senders must know where to push before it starts). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/** Waits until the receiver answers its health route. */
async function listening(url) {
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(`${url}healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`the receiver at ${url} did not start`);
}

/** One signed NDJSON push. */
async function push(url, n, body) {
  const id = `msg_bench_${n}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const mac = createHmac('sha256', KEY).update(`${id}.${timestamp}.`).update(body).digest('base64');
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-ndjson',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${mac}`,
    },
    body,
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`push ${n} answered ${res.status}: ${text.slice(0, 200)}`);
}

/** Pushes the lines of `file` in batches, `SENDERS` at once; resolves with the ms from the first push to the last answer. */
async function pushAll(url, file) {
  const started = performance.now();
  const inFlight = new Set();
  let lines = [];
  let n = 0;
  const send = async () => {
    const body = Buffer.from(`${lines.join('\n')}\n`);
    lines = [];
    n += 1;
    const sending = push(url, n, body).finally(() => inFlight.delete(sending));
    inFlight.add(sending);
    if (inFlight.size >= SENDERS) await Promise.race(inFlight);
  };
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (line === '') continue;
    lines.push(line);
    if (lines.length === BATCH) await send();
  }
  if (lines.length > 0) await send();
  await Promise.all(inFlight);
  return { ms: performance.now() - started, pushes: n };
}

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const count = quick ? 50_000 : 1_000_000;
  const scenario = `audit receive ${count.toLocaleString('en-US')} pushed events (NDJSON batches of ${BATCH}, signed, ${SENDERS} senders) into a folder archive`;
  const missing = await missingCommand(['audit', 'receive'], ['--max-pushes']);
  if (missing) {
    return {
      rows: [unavailableRow(`${scenario}: peak RSS`, `< ${RSS_LIMIT_MB} MB`, missing)],
      raw: { missing },
    };
  }
  return withServer({ seedAuditEvents: 0 }, (server) =>
    withScratch(name, async (scratch) => {
      const now = Date.now();
      const iso = (ms) => new Date(ms).toISOString();
      const range = { from: iso(now - 3 * HOUR), to: iso(now - 2 * HOUR) };
      const seeded = await server.admin('/audit-events', { count, scope: 'project', ...range });
      log(`  seeded ${seeded.added} events`);
      const env = { HOME: scratch, SVC_BASE_URL: server.url, SVC_API_KEY: 'ak_demo_project' };
      const file = join(scratch, 'pushed.ndjson');
      await runNodeOk(
        'svc audit export',
        [SVC_BIN, '-q', 'audit', 'export', '--from', range.from, '--to', range.to, '--out', file],
        { env },
      );
      const dir = join(scratch, 'pushed');
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/`;
      const pushes = Math.ceil(count / BATCH);
      const receiving = runNode(
        [
          SVC_BIN,
          '-q',
          'audit',
          'receive',
          '--dir',
          dir,
          '--port',
          String(port),
          '--max-pushes',
          String(pushes),
        ],
        { env: { ...env, SVC_PUSH_SECRET: SECRET } },
      );
      await listening(url);
      const sent = await pushAll(url, file);
      const receiver = await receiving;
      if (receiver.code !== 0)
        throw new Error(`svc audit receive exited with ${receiver.code}: ${receiver.stderr}`);
      const receiveRate = (count * 1000) / sent.ms;
      log(`  received in ${(sent.ms / 1000).toFixed(1)} s, peak RSS ${receiver.peakRssMb.toFixed(0)} MB`);

      const sync = async (what, into) => {
        const r = await runNodeOk(
          what,
          [SVC_BIN, '-q', 'audit', 'sync', '--dir', into, '--since', iso(now - 4 * HOUR)],
          { env },
        );
        return { eventsPerSec: (count * 1000) / r.wallMs, wallMs: r.wallMs, peakRssMb: r.peakRssMb };
      };
      const reconciled = await sync('svc audit sync (reconciling the spool)', dir);
      const plain = await sync('svc audit sync (no spool)', join(scratch, 'pulled'));
      log(
        `  sync: ${reconciled.wallMs.toFixed(0)} ms reconciling, ${plain.wallMs.toFixed(0)} ms without a spool`,
      );
      const syncFigure = (label, r) => ({ name: label, value: r.eventsPerSec, unit: 'events/s' });
      return {
        rows: [
          limitRow({
            scenario: `${scenario}: peak RSS (${receiveRate.toFixed(0)} events/s sustained)`,
            ours: { name: 'ours', value: receiver.peakRssMb, unit: 'MB' },
            baselines: [],
            below: RSS_LIMIT_MB,
            goal: `< ${RSS_LIMIT_MB} MB`,
            measure: 'one run: the receiver process, from start to its last answer',
          }),
          ratioRow({
            scenario: `${scenario}: rate, beside sync of the same events`,
            ours: { name: 'receive', value: receiveRate, unit: 'events/s' },
            baselines: [syncFigure('sync reconciling', reconciled), syncFigure('sync, no spool', plain)],
            against: syncFigure('sync, no spool', plain),
            goal: 'reported',
            measure: 'first push to last answer; sync: wall time of the process',
          }),
          ratioRow({
            scenario: `audit sync ${count.toLocaleString('en-US')} events reconciling the push spool`,
            ours: syncFigure('reconciling', reconciled),
            baselines: [syncFigure('no spool', plain)],
            against: syncFigure('no spool', plain),
            goal: 'reported',
            measure: 'wall time of the process, one run each',
          }),
        ],
        raw: {
          count,
          batch: BATCH,
          senders: SENDERS,
          sent,
          receiver: { peakRssMb: receiver.peakRssMb },
          reconciled,
          plain,
        },
      };
    }),
  );
}
