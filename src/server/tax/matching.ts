import type { ValidationRequest } from '../../tax/request-schemas.js';

/** Match member of a result. */
export type MatchValue = 'MATCH' | 'PARTIAL_MATCH' | 'NO_MATCH' | 'NOT_REQUESTED';

function simplify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Compares a given name with the registry's, ignoring case, spaces and punctuation. */
export function matchText(given: string, known: string): MatchValue {
  const a = simplify(given);
  const b = simplify(known);
  if (a === b) return 'MATCH';
  if (a.length >= 3 && (b.includes(a) || a.includes(b))) return 'PARTIAL_MATCH';
  return 'NO_MATCH';
}

/** Compares the given address fields with the registry's: all, some or none equal. */
export function matchAddress(
  given: NonNullable<ValidationRequest['address']>,
  known: Record<string, string>,
): MatchValue {
  const fields = Object.entries(given).filter(([, v]) => typeof v === 'string' && v !== '');
  if (fields.length === 0) return 'NOT_REQUESTED';
  const hits = fields.filter(
    ([k, v]) => known[k] !== undefined && simplify(known[k] as string) === simplify(v as string),
  ).length;
  return hits === fields.length ? 'MATCH' : hits > 0 ? 'PARTIAL_MATCH' : 'NO_MATCH';
}
