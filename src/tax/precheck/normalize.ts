/** Longest normalized value the API accepts; longer input is rejected with code LENGTH. */
export const MAX_NORMALIZED_LENGTH = 20;

// What people paste from PDFs, mails and spreadsheets, all removed (see `isSeparator`):
// - ASCII and Unicode spaces, as JS `\s` has them (Unicode White_Space property plus the BOM):
//   among them NBSP U+00A0, figure space U+2007, narrow no-break space U+202F, ideographic space;
// - '.', '-', '_' (the API's own separators) and the notations '/' (Czech birth numbers
//   `640229/4448`, as the Czech tax administration prints them), ':' (`DK: 21599336`), '(' and ')'
//   (the Belgian `(0)` before enterprise numbers, as FPS Economy prints them) and ',';
// - every Unicode dash: U+2010-U+2015 (hyphen, non-breaking hyphen, figure dash, en dash, em dash,
//   horizontal bar), U+2212 minus sign, U+00AD soft hyphen, U+FE58/U+FE63 small forms (Unicode
//   General Category Pd, plus the minus sign).
const SEPARATORS = /[\s._\-/:(),\u00ad\u2010-\u2015\u2212\ufe58\ufe63]+/g;

const FULL_WIDTH = /[\uff01-\uff5e]/g;
const fromFullWidth = (c: string): string => String.fromCharCode(c.charCodeAt(0) - 0xfee0);

function isSeparator(c: number): boolean {
  if (c < 128)
    return (
      c === 32 || (c >= 44 && c <= 47) || c === 95 || c === 58 || c === 40 || c === 41 || (c >= 9 && c <= 13)
    );
  return (
    c === 0xa0 ||
    c === 0xad ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    (c >= 0x2010 && c <= 0x2015) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x2212 ||
    c === 0x3000 ||
    c === 0xfeff ||
    c === 0xfe58 ||
    c === 0xfe63
  );
}

// Upper-casing may triple a string's length (e.g. U+FB03 -> 'FFI') and so exceed the engine's maximum
// string length (2^29 - 24 in V8) for inputs beyond ~179 million characters. Anything above this
// threshold takes the guarded path below; everything else never comes near the limit.
const HUGE_INPUT = 1 << 24;

/**
 * Normalization of a raw tax ID as entered or pasted: full-width letters and digits become ASCII;
 * whitespace (any Unicode space), every Unicode dash, '.', '_', '/', ':', ',', '(' and ')' are
 * removed; the rest is upper-cased. It does not strip country prefixes; that is country-specific and
 * done by {@link precheck}.
 *
 * A non-string argument (possible from untyped callers) normalizes to ''.
 *
 * @example
 * normalizeTaxId(' de 136.695-976 '); // 'DE136695976'
 * normalizeTaxId('DE 136–695–976'); // 'DE136695976' (en dashes)
 * normalizeTaxId('BE (0)468.561.072'); // 'BE0468561072'
 */
export function normalizeTaxId(rawValue: string): string {
  if (typeof rawValue !== 'string') return '';
  if (isCanonicalAscii(rawValue)) return rawValue;
  if (rawValue.length > HUGE_INPUT) return normalizeHuge(rawValue);
  if (rawValue.length > 64)
    return rawValue.replace(FULL_WIDTH, fromFullWidth).replace(SEPARATORS, '').toUpperCase();
  return normalizeShort(rawValue);
}

// One pass over typical input: full-width ASCII (U+FF01-U+FF5E, e.g. '１' or 'Ｄ' from East Asian input
// methods) maps to ASCII by a fixed offset, as its Unicode compatibility decomposition (NFKC) does;
// separators are dropped; ASCII letters are upper-cased here, anything else by toUpperCase.
function normalizeShort(s: string): string {
  let out = '';
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xff01 && c <= 0xff5e) c -= 0xfee0;
    if (c >= 97 && c <= 122) c -= 32;
    else if (isSeparator(c)) continue;
    else if (c > 127) ascii = false;
    out += String.fromCharCode(c);
  }
  return ascii ? out : out.toUpperCase();
}

// Most input is already upper-case letters and digits; returning it as is skips two allocations.
// A regular expression, not a charCodeAt loop: it flattens concatenated (cons) strings once and
// needs no inlining to be fast, where the loop is slow on them.
const CANONICAL_ASCII = /^[0-9A-Z]{1,64}$/;

function isCanonicalAscii(s: string): boolean {
  return CANONICAL_ASCII.test(s);
}

// Cold path, only for multi-megabyte input: if the upper-cased form cannot be represented,
// fall back to the separator-stripped value (it is rejected as LENGTH either way).
function normalizeHuge(rawValue: string): string {
  const stripped = rawValue.replace(FULL_WIDTH, fromFullWidth).replace(SEPARATORS, '');
  try {
    return stripped.toUpperCase();
  } catch {
    return stripped;
  }
}
