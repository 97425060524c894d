// Baseline of the audit export: the raw transfer limit. undici `request` on a keep-alive Agent walks
// the same pages (same from, to, pageSize; following nextCursor) and streams each body to a file
// as it arrives. No per-event work at all: the cursor is read from the tail of the body.
//
// usage: node bench/baselines/raw-audit-export.js BASE_URL KEY FROM TO PAGE_SIZE OUT
// prints one JSON line: { pages, bytes, totalElements }

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Agent, request } from 'undici';

const [baseUrl, key, from, to, pageSize, out] = process.argv.slice(2);
if (!out) {
  console.error('usage: raw-audit-export.js BASE_URL KEY FROM TO PAGE_SIZE OUT');
  process.exit(2);
}

const TAIL = /"nextCursor":(null|"([^"]*)")\s*\}\s*$/;
const TOTAL = /"totalElements":(\d+)/;

/** The value of `nextCursor` from the last bytes of a page (it is the body's last member). */
function cursorFromTail(tail) {
  const match = TAIL.exec(tail);
  if (!match) throw new Error(`no nextCursor at the end of the page: ...${tail.slice(-200)}`);
  return match[1] === 'null' ? null : match[2];
}

const agent = new Agent({ keepAliveTimeout: 4000 });
const file = createWriteStream(out);
const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
let cursor;
let pages = 0;
let bytes = 0;
let totalElements;
do {
  const query = new URLSearchParams({ from, to, pageSize });
  if (cursor) query.set('cursor', cursor);
  const res = await request(`${baseUrl}/platform/v1/events?${query}`, { headers, dispatcher: agent });
  if (res.statusCode !== 200) {
    throw new Error(`GET /platform/v1/events answered ${res.statusCode}: ${await res.body.text()}`);
  }
  let tail = '';
  let head = '';
  for await (const chunk of res.body) {
    bytes += chunk.length;
    if (head.length < 200) head += chunk.toString('latin1', 0, 200);
    tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - 1024))).slice(-2048);
    if (!file.write(chunk)) await once(file, 'drain');
  }
  if (!file.write('\n')) await once(file, 'drain');
  if (pages === 0) totalElements = Number(TOTAL.exec(tail)?.[1] ?? TOTAL.exec(head)?.[1] ?? Number.NaN);
  cursor = cursorFromTail(tail);
  pages += 1;
} while (cursor);
file.end();
await once(file, 'close');
await agent.close();
process.stdout.write(`${JSON.stringify({ pages, bytes, totalElements })}\n`);
