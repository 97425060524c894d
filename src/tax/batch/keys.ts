import { nodeBuiltin } from '../../core/node-builtin.js';

let hash: typeof import('node:crypto').hash | undefined;

/** JSON with sorted keys, so the same row content always hashes the same. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  return `{${Object.keys(value as object)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}

/** The idempotency key of a row: `run id + row number + row content`, hashed, shaped like a UUID. */
export function rowIdempotencyKey(runId: string, row: number, request: unknown): string {
  // One-shot hash: a third of the time of createHash().update().digest(), once per row.
  hash ??= nodeBuiltin('node:crypto', 'batch idempotency keys').hash;
  const hex = hash('sha256', `${runId}\n${row}\n${canonical(request)}`, 'hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
