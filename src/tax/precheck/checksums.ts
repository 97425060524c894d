// Shared digit and checksum helpers. All take a string plus index range and read digits with
// charCodeAt, so the hot path allocates nothing. Callers validate the charset first.

/** Numeric value of the ASCII digit at index i (no validation). */
export function digit(s: string, i: number): number {
  return s.charCodeAt(i) - 48;
}

/** True when s[from..to) is non-empty and all ASCII digits. */
export function isDigits(s: string, from = 0, to: number = s.length): boolean {
  if (from >= to) return false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** True when the character at index i is an ASCII upper-case letter. */
export function isUpperLetterAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 65 && c <= 90;
}

/** Σ weights[k] · digit(from + k) over weights.length digits. */
export function weightedSum(s: string, weights: readonly number[], from = 0): number {
  let sum = 0;
  for (let k = 0; k < weights.length; k++) sum += weights[k]! * (s.charCodeAt(from + k) - 48);
  return sum;
}

/** Decimal value of s[from..to) modulo m, digit by digit (safe for any length). */
export function decimalMod(s: string, from: number, to: number, m: number): number {
  let r = 0;
  for (let i = from; i < to; i++) r = (r * 10 + s.charCodeAt(i) - 48) % m;
  return r;
}

/** Decimal value of s[from..to); only for short ranges (≤ 15 digits). */
export function decimalValue(s: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + s.charCodeAt(i) - 48;
  return v;
}

/** Luhn sum of s[from..to), doubling every second digit from the right (the rightmost when `doubleFirst`). */
function luhnSum(s: string, from: number, to: number, doubleFirst: boolean): number {
  let sum = 0;
  let double = doubleFirst;
  for (let i = to - 1; i >= from; i--) {
    let d = s.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum;
}

/** Luhn: true when s[from..to), including its trailing check digit, has a sum ≡ 0 (mod 10). */
export function luhnValid(s: string, from = 0, to: number = s.length): boolean {
  return luhnSum(s, from, to, false) % 10 === 0;
}

/** Luhn check digit to append to the payload s[from..to). */
export function luhnCheckDigit(s: string, from: number, to: number): number {
  return (10 - (luhnSum(s, from, to, true) % 10)) % 10;
}

/** ISO 7064 MOD 11,10: true when the last digit of s[from..to) is the check digit of the rest. */
export function mod11_10Valid(s: string, from = 0, to: number = s.length): boolean {
  let p = 10;
  for (let i = from; i < to - 1; i++) {
    let t = (s.charCodeAt(i) - 48 + p) % 10;
    if (t === 0) t = 10;
    p = (t * 2) % 11;
  }
  return (11 - p) % 10 === s.charCodeAt(to - 1) - 48;
}

/**
 * ISO 7064 MOD 97-10 remainder of an alphanumeric string (digits as themselves, A=10 … Z=35),
 * continuing from remainder `r` (so a constant prefix can be folded in once). Valid when 1.
 */
export function mod97_10(s: string, r = 0): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    r = c <= 57 ? (r * 10 + c - 48) % 97 : (r * 100 + c - 55) % 97;
  }
  return r;
}

/** GS1 mod 10 (EAN/GLN): weights 3,1,3,… from the right of the payload. */
export function gs1Valid(s: string, from = 0, to: number = s.length): boolean {
  let sum = 0;
  let three = true;
  for (let i = to - 2; i >= from; i--) {
    sum += (s.charCodeAt(i) - 48) * (three ? 3 : 1);
    three = !three;
  }
  return (10 - (sum % 10)) % 10 === s.charCodeAt(to - 1) - 48;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Proleptic Gregorian calendar date check (what the birth-date coded IDs use). */
export function isValidDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  if (month === 2 && day === 29) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= DAYS_IN_MONTH[month - 1]!;
}
