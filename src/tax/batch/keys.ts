import { sha256Hexes } from '../../core/sha256.js';

/**
 * JSON with sorted keys (members whose value is undefined left out), so the same row content
 * always hashes the same. Plain loops: it runs once per row, and the keys of every run ever
 * started depend on this exact text.
 */
function canonical(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonical(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  sortSmall(keys);
  let out = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonical(member)}`;
  }
  return `${out}}`;
}

/**
 * Sorts in place in the order of `Array.prototype.sort()` (UTF-16 code units): an insertion sort
 * for the few keys of a request, where the built-in sort's work copy was 7 % of a batch run's
 * allocations.
 */
function sortSmall(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j--) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
}

/**
 * What a row's idempotency key hashes: `run id + row number + row content` (the content as
 * {@link canonical} writes it). Taken when the row is checked, before its request is completed.
 */
export function rowKeyText(runId: string, row: number, request: unknown): string {
  return `${runId}\n${row}\n${canonical(request)}`;
}

/** A SHA-256 digest's first 16 bytes (32 hex digits) shaped like a UUID (8-4-4-4-12). */
function uuidShape(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The idempotency keys of the texts of {@link rowKeyText}, in their order: each text's SHA-256,
 * shaped like a UUID. A chunk of rows at a time, and asynchronous, so the digest can be any
 * runtime's (core/sha256.ts: node:crypto where the Node build provides it, Web Crypto elsewhere).
 */
export async function idempotencyKeys(texts: readonly string[]): Promise<string[]> {
  const digests = await sha256Hexes(texts);
  return digests.map(uuidShape);
}

/** The idempotency key of one row: `run id + row number + row content`, hashed, shaped like a UUID. */
export async function rowIdempotencyKey(runId: string, row: number, request: unknown): Promise<string> {
  const [key] = await idempotencyKeys([rowKeyText(runId, row, request)]);
  return key as string;
}
