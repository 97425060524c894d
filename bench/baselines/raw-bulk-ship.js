// Baseline of the audit ship: a bulk loop written by hand over the same archive. It reads each
// data file of the folder archive (gunzip, line by line), makes each event its ECS document with
// the package's own toEcs (the same normalisation), and POSTs `create` actions with the event id
// as _id in batches of BATCH to URL/INDEX/_bulk with undici `request` on a keep-alive Agent, one
// request at a time, checking `errors`. No manifest check, no checkpoint, no retry.
//
// usage: node bench/baselines/raw-bulk-ship.js ARCHIVE_DIR URL INDEX BATCH
// prints one JSON line: { sent, requests }

import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { createGunzip } from 'node:zlib';
import { Agent, request } from 'undici';

const [dir, url, index, batchText] = process.argv.slice(2);
if (!batchText) {
  console.error('usage: raw-bulk-ship.js ARCHIVE_DIR URL INDEX BATCH');
  process.exit(2);
}
const root = process.env.SVC_BENCH_ROOT || new URL('../../', import.meta.url).pathname;
const { toEcs } = await import(pathToFileURL(join(root, 'dist', 'node.js')).href);
const batch = Number(batchText);
const agent = new Agent({ keepAliveTimeout: 4000 });
const target = `${url}/${index}/_bulk`;
let lines = [];
let sent = 0;
let requests = 0;

async function flush() {
  if (lines.length === 0) return;
  const body = lines.join('');
  const count = lines.length;
  lines = [];
  requests += 1;
  const res = await request(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body,
    dispatcher: agent,
  });
  const answer = await res.body.json();
  if (res.statusCode !== 200 || answer.errors)
    throw new Error(`_bulk answered ${res.statusCode}, errors ${answer.errors}`);
  sent += count;
}

const files = readdirSync(dir)
  .filter((name) => /^audit-\d+\.ndjson(\.gz)?$/.test(name))
  .sort();
for (const name of files) {
  const raw = createReadStream(join(dir, name));
  const input = name.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line === '') continue;
    const event = JSON.parse(line);
    lines.push(`{"create":{"_id":${JSON.stringify(event.id)}}}\n${JSON.stringify(toEcs(event))}\n`);
    if (lines.length >= batch) await flush();
  }
}
await flush();
await agent.close();
console.log(JSON.stringify({ sent, requests }));
