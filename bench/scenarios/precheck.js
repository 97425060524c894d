// Offline pre-check: `precheck` (dist) vs jsvat-next and stdnum on the same mixed inputs, in one
// process, interleaved rounds. Each oracle gets a thin adapter that picks its validator for the
// country and adds the VAT prefix these libraries require when the input lacks it.
import { createRequire } from 'node:module';
import jsvat from 'jsvat-next';
import { euVat, stdnum } from 'stdnum';
import { loadLibrary } from '../lib/available.js';
import { ratioRow, unavailableRow } from '../lib/rows.js';
import { interleave, medianOf } from '../lib/stats.js';
import { precheckInputs } from '../precheck-inputs.js';

const ean = createRequire(import.meta.url)('stdnum/lib/cjs/gen/ean.js');

export const name = 'precheck';

const GOAL = '>= 4x jsvat-next';

const EU = 'AT BE BG CY CZ DE DK EE GR ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' ');
const JSVAT_COUNTRY = {
  AT: 'austria',
  BE: 'belgium',
  BG: 'bulgaria',
  CY: 'cyprus',
  CZ: 'czechRepublic',
  DE: 'germany',
  DK: 'denmark',
  EE: 'estonia',
  GR: 'greece',
  ES: 'spain',
  FI: 'finland',
  FR: 'france',
  HR: 'croatia',
  HU: 'hungary',
  IE: 'ireland',
  IT: 'italy',
  LT: 'lithuania',
  LU: 'luxembourg',
  LV: 'latvia',
  MT: 'malta',
  NL: 'netherlands',
  PL: 'poland',
  PT: 'portugal',
  RO: 'romania',
  SE: 'sweden',
  SI: 'slovenia',
  SK: 'slovakiaRepublic',
  GB: 'unitedKingdom',
  XI: 'unitedKingdom',
  CH: 'switzerland',
  NO: 'norway',
  AU: 'australia',
};

/** The prefix a value must carry for the oracles ('' where the number has none). */
function prefixOf(country) {
  if (country === 'GR') return 'EL';
  return ['CH', 'NO', 'AU', 'NZ'].includes(country) ? '' : country;
}

/** `value` with `prefix` in front unless it already starts with it (any case). */
function withPrefix(prefix, value) {
  if (!prefix) return value;
  const head = value.slice(0, 2);
  return head === prefix || head.toUpperCase() === prefix ? value : prefix + value;
}

/**
 * `(country, value) => valid` for jsvat-next; countries it lacks (NZ) count as invalid.
 * @returns {(country: string, value: string) => boolean}
 */
export function jsvatAdapter() {
  const table = new Map(
    Object.entries(JSVAT_COUNTRY).map(([cc, key]) => [cc, { prefix: prefixOf(cc), list: [jsvat[key]] }]),
  );
  return (country, value) => {
    const entry = table.get(country);
    return entry ? jsvat.checkVAT(withPrefix(entry.prefix, value), entry.list).isValid : false;
  };
}

/**
 * `(country, value) => valid` for stdnum, with the validator the oracle tests use per country.
 * @returns {(country: string, value: string) => boolean}
 */
export function stdnumAdapter() {
  /** @type {Map<string, (value: string) => boolean>} */
  const table = new Map();
  for (const cc of EU) {
    const validator = euVat[cc][0];
    const prefix = prefixOf(cc);
    table.set(cc, (v) => validator.validate(withPrefix(prefix, v)).isValid);
  }
  table.set('GB', (v) => stdnum.GB.vat.validate(withPrefix('GB', v)).isValid);
  // stdnum's GB validator does not know XI: it gets the bare number.
  table.set('XI', (v) => stdnum.GB.vat.validate(/^xi/i.test(v) ? v.slice(2) : v).isValid);
  table.set('CH', (v) => stdnum.CH.uid.validate(v).isValid);
  table.set('NO', (v) => stdnum.NO.orgnr.validate(v).isValid);
  table.set('AU', (v) => stdnum.AU.abn.validate(v).isValid);
  table.set('NZ', (v) => ean.validate(v).isValid);
  return (country, value) => table.get(country)?.(value) ?? false;
}

/**
 * Times one validator over every input; counts the valid ones so the work cannot be skipped.
 * @param {(country: string, value: string) => boolean} check
 * @param {ReadonlyArray<{ country: string, value: string }>} inputs
 */
function timeAll(check, inputs) {
  const started = performance.now();
  let valid = 0;
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i];
    if (check(input.country, input.value)) valid++;
  }
  const ms = performance.now() - started;
  return { idsPerSec: (inputs.length * 1000) / ms, ms, valid };
}

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const count = quick ? 100_000 : 1_000_000;
  const rounds = quick ? 1 : 5;
  const scenario = `precheck ${count.toLocaleString('en-US')} mixed IDs`;
  const { lib, why } = await loadLibrary();
  if (!lib?.precheck) {
    return { rows: [unavailableRow(scenario, GOAL, why ?? 'no precheck export')], raw: {} };
  }
  const inputs = precheckInputs(count, 42);
  const contenders = {
    ours: (country, value) => lib.precheck(country, value).valid,
    'jsvat-next': jsvatAdapter(),
    stdnum: stdnumAdapter(),
  };
  // Warm-up until the JIT has settled: two full passes for the fast ones; stdnum, ten times
  // slower, settles within a fraction.
  for (const [k, check] of Object.entries(contenders)) {
    const warm = k === 'stdnum' ? inputs.slice(0, 20_000) : inputs;
    for (let pass = 0; pass < 2; pass++) timeAll(check, warm);
  }

  const results = await interleave(
    rounds,
    Object.fromEntries(
      Object.entries(contenders).map(([k, check]) => [k, async () => timeAll(check, inputs)]),
    ),
    log,
  );
  const fig = (k) => ({ name: k, value: medianOf(results[k], 'idsPerSec'), unit: 'IDs/s' });
  const ours = fig('ours');
  // The goal (issue 18) is set against jsvat-next, the faster oracle by far; stdnum is shown for scale.
  const jsvatNext = fig('jsvat-next');
  const theirs = [jsvatNext, fig('stdnum')];
  const validShare = (k) => `${k} ${(((results[k]?.[0]?.valid ?? 0) * 100) / count).toFixed(1)}%`;
  return {
    rows: [
      ratioRow({
        scenario,
        ours,
        baselines: theirs,
        against: jsvatNext,
        min: 4,
        goal: GOAL,
        ratioLabel: 'vs jsvat-next',
        measure: `time, medians of ${rounds} round${rounds === 1 ? '' : 's'}`,
        note: `valid: ${Object.keys(contenders).map(validShare).join(', ')}`,
      }),
    ],
    raw: { count, rounds, results },
  };
}
