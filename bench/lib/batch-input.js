import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/**
 * `count` distinct, valid German VAT numbers (9 digits, no leading 0), deterministic for a seed.
 * The check digit comes from the project's own pre-check, so every row passes it.
 * @param {number} count
 * @param {(country: string, value: string) => { valid: boolean }} precheck
 * @param {number} [seed]
 * @returns {Generator<string>}
 */
export function* germanVatIds(count, precheck, seed = 7) {
  // Stepping through the 8-digit bodies with a stride coprime to their range gives distinct bodies.
  const range = 90_000_000;
  const stride = 7_919_003;
  let body = seed % range;
  for (let produced = 0; produced < count; body = (body + stride) % range) {
    const stem = String(10_000_000 + body);
    for (let check = 0; check <= 9; check++) {
      const candidate = stem + check;
      if (precheck('DE', candidate).valid) {
        yield candidate;
        produced += 1;
        break;
      }
    }
  }
}

/**
 * Writes a batch CSV (`countryCode,rawValue`) of `count` valid DE numbers.
 * @param {string} path
 * @param {number} count
 * @param {Parameters<typeof germanVatIds>[1]} precheck
 * @returns {Promise<string[]>} the numbers, in row order
 */
export async function writeBatchCsv(path, count, precheck) {
  const ids = [...germanVatIds(count, precheck)];
  const out = createWriteStream(path);
  out.write('countryCode,rawValue\n');
  for (let i = 0; i < ids.length; i += 10_000) {
    const lines = ids.slice(i, i + 10_000).map((id) => `DE,${id}\n`);
    if (!out.write(lines.join(''))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return ids;
}

/**
 * A UUID-shaped idempotency key per run and row, like the CLI derives its keys.
 * @param {string} runId
 * @param {number} row
 */
export function benchKey(runId, row) {
  const hex = createHash('sha256').update(`${runId}\n${row}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The request bodies of `POST /validations/batch` for the numbers, `chunkSize` items each, one
 * JSON text per element.
 * @param {string[]} ids
 * @param {number} chunkSize
 * @param {string} runId
 * @returns {string[]}
 */
export function chunkBodies(ids, chunkSize, runId) {
  const bodies = [];
  for (let start = 0; start < ids.length; start += chunkSize) {
    const items = ids.slice(start, start + chunkSize).map((rawValue, k) => ({
      countryCode: 'DE',
      rawValue,
      idempotencyKey: benchKey(runId, start + k + 1),
    }));
    bodies.push(JSON.stringify({ items }));
  }
  return bodies;
}
