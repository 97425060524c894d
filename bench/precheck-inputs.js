/**
 * Deterministic input generator for tax-ID pre-check throughput benchmarks: a mix of known-valid IDs
 * (with and without prefix, spaced, lower-cased) and single-digit mutations of them (mostly invalid).
 * Used to time `precheck` against the oracle libraries on the same inputs.
 */

/** @typedef {{ readonly country: string, readonly value: string }} PrecheckInput */

// Known-valid bodies per country (public examples; see test/tax/precheck/fixtures.ts).
/** @type {ReadonlyArray<readonly [string, string]>} */
const VALID = [
  ['AT', 'U13585627'],
  ['BE', '0428759497'],
  ['BE', '1001686633'],
  ['BG', '175074752'],
  ['BG', '7523169263'],
  ['CY', '10259033P'],
  ['CZ', '25123891'],
  ['CZ', '7103192745'],
  ['CZ', '640903926'],
  ['DE', '136695976'],
  ['DK', '13585628'],
  ['EE', '100931558'],
  ['GR', '094259216'],
  ['ES', 'B58378431'],
  ['ES', '54362315K'],
  ['ES', 'X5253868R'],
  ['FI', '20774740'],
  ['FR', '40303265045'],
  ['FR', 'K7399859412'],
  ['HR', '33392005961'],
  ['HU', '12892312'],
  ['IE', '6433435F'],
  ['IE', '6433435OA'],
  ['IT', '00743110157'],
  ['LT', '119511515'],
  ['LT', '100001919017'],
  ['LU', '15027442'],
  ['LV', '40003521600'],
  ['LV', '32104468364'],
  ['MT', '11679112'],
  ['NL', '004495445B01'],
  ['NL', '002455799B11'],
  ['PL', '8567346215'],
  ['PT', '501964843'],
  ['RO', '18547290'],
  ['SE', '123456789701'],
  ['SI', '50223054'],
  ['SK', '2022749619'],
  ['XI', '432525179'],
  ['GB', '980780684'],
  ['CH', 'CHE100155212'],
  ['NO', '988077917'],
  ['AU', '51824753556'],
  ['NZ', '9429050294954'],
];

// Countries whose numbers carry no VAT prefix in the value.
const NO_PREFIX = new Set(['CH', 'NO', 'AU', 'NZ']);

/**
 * Mulberry32: tiny seeded PRNG so every run times the same inputs.
 * @param {number} seed
 * @returns {() => number}
 */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * @param {string} value
 * @param {() => number} rand
 * @returns {string}
 */
function mutateDigit(value, rand) {
  /** @type {number[]} */
  const positions = [];
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) positions.push(i);
  }
  const at = positions[Math.floor(rand() * positions.length)] ?? 0;
  const old = value.charCodeAt(at) - 48;
  const next = (old + 1 + Math.floor(rand() * 9)) % 10;
  return value.slice(0, at) + String(next) + value.slice(at + 1);
}

/**
 * `count` inputs, about half of them valid. Country codes are upper-case ISO codes ('GR' for Greece,
 * whose value prefix is 'EL').
 *
 * @example
 * const inputs = precheckInputs(1_000_000, 42);
 * @param {number} count
 * @param {number} [seed]
 * @returns {PrecheckInput[]}
 */
export function precheckInputs(count, seed = 1) {
  const rand = prng(seed);
  /** @type {PrecheckInput[]} */
  const out = [];
  for (let i = 0; i < count; i++) {
    const [country, body] = /** @type {readonly [string, string]} */ (
      VALID[Math.floor(rand() * VALID.length)]
    );
    let value = rand() < 0.5 ? body : mutateDigit(body, rand);
    const style = rand();
    if (!NO_PREFIX.has(country) && style < 0.5) value = (country === 'GR' ? 'EL' : country) + value;
    if (style > 0.8 && style <= 0.9) value = value.slice(0, 3) + ' ' + value.slice(3).toLowerCase();
    // Pasted from a PDF: groups joined by en dashes and a narrow no-break space.
    if (style > 0.9) value = value.slice(0, 2) + '\u202f' + value.slice(2, 5) + '\u2013' + value.slice(5);
    out.push({ country, value });
  }
  return out;
}
