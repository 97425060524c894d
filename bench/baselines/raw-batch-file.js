// Second baseline of `svc batch` (report only): the same file-to-file job written by hand, with
// none of the CLI's checks. csv-parse reads the CSV (`countryCode,rawValue`), each row gets a
// SHA-256 idempotency key (as bench/lib/batch-input.js derives them), undici `request` on a
// keep-alive Agent POSTs chunks of CHUNK to /taxvalidation/v1/validations/batch, CONCURRENCY in
// flight, and every row's answer is written to OUT as one NDJSON line, in input order. No schema
// check, pre-check, retry, checkpoint or resume: the difference to `svc batch` is what those cost.
//
// usage: node bench/baselines/raw-batch-file.js BASE_URL KEY CSV OUT CHUNK CONCURRENCY
// prints one JSON line: { requests, items }
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { parse } from 'csv-parse';
import { benchKey } from '../lib/batch-input.js';
import { batchPoster } from '../lib/batch-post.js';

const [baseUrl, key, csvPath, outPath, chunkText, concurrencyText] = process.argv.slice(2);
if (!concurrencyText) {
  console.error('usage: raw-batch-file.js BASE_URL KEY CSV OUT CHUNK CONCURRENCY');
  process.exit(2);
}
const chunkSize = Number(chunkText);
const concurrency = Number(concurrencyText);
const poster = batchPoster(baseUrl, key);
const out = createWriteStream(outPath);
let requests = 0;
let items = 0;

/** POSTs one chunk; resolves to its NDJSON lines. */
async function send(rows, firstRow) {
  const body = JSON.stringify({
    items: rows.map(([countryCode, rawValue], k) => ({
      countryCode,
      rawValue,
      idempotencyKey: benchKey('bench-file', firstRow + k),
    })),
  });
  const accepted = await poster.post(body);
  requests += 1;
  items += accepted.length;
  let lines = '';
  for (let k = 0; k < rows.length; k++) {
    const [countryCode, rawValue] = rows[k];
    lines += `${JSON.stringify({
      row: firstRow + k,
      status: 'submitted',
      validationRequestId: accepted[k]?.validationRequestId,
      input: { countryCode, rawValue },
    })}\n`;
  }
  return lines;
}

const window = [];
async function writeOldest() {
  if (!out.write(await window.shift())) await once(out, 'drain');
}

const parser = createReadStream(csvPath).pipe(parse({ from_line: 2 }));
let chunk = [];
let row = 0;
for await (const record of parser) {
  chunk.push(record);
  row += 1;
  if (chunk.length === chunkSize) {
    window.push(send(chunk, row - chunk.length + 1));
    chunk = [];
    if (window.length >= concurrency) await writeOldest();
  }
}
if (chunk.length > 0) window.push(send(chunk, row - chunk.length + 1));
while (window.length > 0) await writeOldest();
out.end();
await once(out, 'close');
await poster.close();
process.stdout.write(`${JSON.stringify({ requests, items })}\n`);
