/**
 * Median of numbers (mean of the middle two for an even count).
 * @param {number[]} values
 */
export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? /** @type {number} */ (sorted[mid]) : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Nearest-rank percentile of an ascending-sorted array (`p` in 0..100).
 * @param {Float64Array | number[]} sorted
 * @param {number} p
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return /** @type {number} */ (sorted[rank]);
}

/**
 * Per-round figures of several contenders, measured in rotating order so drift of the machine (other
 * load, thermal state) spreads evenly over all of them.
 * @template R
 * @param {number} rounds
 * @param {Record<string, () => Promise<R>>} contenders
 * @param {(line: string) => void} [log]
 * @returns {Promise<Record<string, R[]>>}
 */
export async function interleave(rounds, contenders, log) {
  const names = Object.keys(contenders);
  /** @type {Record<string, R[]>} */
  const out = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = /** @type {string} */ (names[(round + k) % names.length]);
      const result = await /** @type {() => Promise<R>} */ (contenders[name])();
      out[name]?.push(result);
      log?.(`  round ${round + 1}/${rounds} ${name}: ${JSON.stringify(result)}`);
    }
  }
  return out;
}

/**
 * The median over rounds of `ours[i][field] / base[i][field]`: each ratio compares two runs of the
 * same round, next to each other in time, so a machine that slows down for a few seconds slows
 * both sides of one ratio instead of one side of the ratio of two medians.
 * @param {Array<Record<string, number>>} ours
 * @param {Array<Record<string, number>>} base
 * @param {string} field
 */
export function pairedRatio(ours, base, field) {
  const ratios = ours.map((r, i) => r[field] / (base[i]?.[field] ?? Number.NaN)).filter(Number.isFinite);
  return ratios.length > 0 ? median(ratios) : null;
}

/** Medians of one numeric field over rounds. */
export function medianOf(results, field) {
  return median(results.map((r) => r[field]));
}

/** A number with thousands separators and at most `digits` decimals. */
export function fmt(value, digits = 0) {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}
