/** Longest normalized value the API accepts; longer input is rejected with code LENGTH. */
export const MAX_NORMALIZED_LENGTH = 20;

// JS `\s` covers the Unicode spaces (NBSP, U+2000..U+200A, U+3000, BOM, ...) users paste in.
const SEPARATORS = /[\s._-]+/g;

// Upper-casing may triple a string's length (e.g. U+FB03 -> 'FFI') and so exceed the engine's maximum
// string length (2^29 - 24 in V8) for inputs beyond ~179 million characters. Anything above this
// threshold takes the guarded path below; everything else never comes near the limit.
const HUGE_INPUT = 1 << 24;

/**
 * The API's normalization of a raw tax ID: remove whitespace, '.', '-' and '_', then upper-case.
 * It does not strip country prefixes; that is country-specific and done by {@link precheck}.
 *
 * A non-string argument (possible from untyped callers) normalizes to ''.
 *
 * @example
 * normalizeTaxId(' de 136.695-976 '); // 'DE136695976'
 */
export function normalizeTaxId(rawValue: string): string {
  if (typeof rawValue !== 'string') return '';
  if (isCanonicalAscii(rawValue)) return rawValue;
  if (rawValue.length > HUGE_INPUT) return normalizeHuge(rawValue);
  return rawValue.replace(SEPARATORS, '').toUpperCase();
}

// Most input is already upper-case letters and digits; returning it as is skips two allocations.
function isCanonicalAscii(s: string): boolean {
  if (s.length > 64) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 90 || c < 48 || (c > 57 && c < 65)) return false;
  }
  return true;
}

// Cold path, only for multi-megabyte input: if the upper-cased form cannot be represented,
// fall back to the separator-stripped value (it is rejected as LENGTH either way).
function normalizeHuge(rawValue: string): string {
  const stripped = rawValue.replace(SEPARATORS, '');
  try {
    return stripped.toUpperCase();
  } catch {
    return stripped;
  }
}
