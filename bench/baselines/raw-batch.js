// Baseline of `svc batch`: the raw limit. undici `request` on a keep-alive Agent POSTs pre-built
// chunk bodies (one JSON body per line of BODIES, items with idempotency keys) to
// /taxvalidation/v1/validations/batch, CONCURRENCY in flight, and reads every answer.
//
// usage: node bench/baselines/raw-batch.js BASE_URL KEY BODIES CONCURRENCY
// prints one JSON line: { requests, items }
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';

const [baseUrl, key, bodiesFile, concurrencyText] = process.argv.slice(2);
if (!concurrencyText) {
  console.error('usage: raw-batch.js BASE_URL KEY BODIES CONCURRENCY');
  process.exit(2);
}

const bodies = readFileSync(bodiesFile, 'utf8').split('\n').filter(Boolean);
const agent = new Agent({ keepAliveTimeout: 4000 });
const url = `${baseUrl}/taxvalidation/v1/validations/batch`;
const headers = {
  authorization: `Bearer ${key}`,
  accept: 'application/json',
  'content-type': 'application/json',
};
let next = 0;
let items = 0;

async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++];
    const res = await request(url, { method: 'POST', headers, body, dispatcher: agent });
    const text = await res.body.text();
    if (res.statusCode !== 202)
      throw new Error(`batch POST answered ${res.statusCode}: ${text.slice(0, 300)}`);
    items += JSON.parse(text).items.length;
  }
}

await Promise.all(Array.from({ length: Number(concurrencyText) }, worker));
await agent.close();
process.stdout.write(`${JSON.stringify({ requests: bodies.length, items })}\n`);
