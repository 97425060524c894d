// Baseline of `svc batch`: the raw limit. undici `request` on a keep-alive Agent POSTs pre-built
// chunk bodies (one JSON body per line of BODIES, items with idempotency keys) to
// /taxvalidation/v1/validations/batch, CONCURRENCY in flight, and reads every answer.
//
// usage: node bench/baselines/raw-batch.js BASE_URL KEY BODIES CONCURRENCY
// prints one JSON line: { requests, items }
import { readFileSync } from 'node:fs';
import { batchPoster } from '../lib/batch-post.js';

const [baseUrl, key, bodiesFile, concurrencyText] = process.argv.slice(2);
if (!concurrencyText) {
  console.error('usage: raw-batch.js BASE_URL KEY BODIES CONCURRENCY');
  process.exit(2);
}

const bodies = readFileSync(bodiesFile, 'utf8').split('\n').filter(Boolean);
const poster = batchPoster(baseUrl, key);
let next = 0;
let items = 0;

async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++];
    // Awaited first: `items += await ...` would read items before the await and lose counts.
    const accepted = await poster.post(body);
    items += accepted.length;
  }
}

await Promise.all(Array.from({ length: Number(concurrencyText) }, worker));
await poster.close();
process.stdout.write(`${JSON.stringify({ requests: bodies.length, items })}\n`);
