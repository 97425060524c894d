import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One line of the results table.
 * @typedef {{ name: string, value: number | null, unit: string }} Figure
 * @typedef {{
 *   scenario: string,
 *   ours: Figure,
 *   baselines: Figure[],
 *   ratio: number | null,
 *   ratioLabel?: string,
 *   goal: string,
 *   met: boolean | null,
 *   measure?: string,
 *   note?: string,
 * }} Row
 * `measure` says which figure decides the goal (shown as the table's `decided by`).
 */

/**
 * A row whose goal is `ours / baseline >= min` (rates) or `ours / baseline <= max` (times).
 * `ratio`, when given, is the ratio measured in pairs (the median of each run over its own
 * baseline run), which the goal is judged on instead of the ratio of the two medians.
 * @param {{ scenario: string, ours: Figure, baselines: Figure[], against: Figure, min?: number, max?: number, ratio?: number, goal: string, ratioLabel?: string, measure?: string, note?: string }} spec
 * @returns {Row}
 */
export function ratioRow(spec) {
  const { ours, against } = spec;
  const ratio = spec.ratio ?? (ours.value !== null && against.value ? ours.value / against.value : null);
  let met = null;
  if (ratio !== null) {
    if (spec.min !== undefined) met = ratio >= spec.min;
    if (spec.max !== undefined) met = ratio <= spec.max;
  }
  return {
    scenario: spec.scenario,
    ours,
    baselines: spec.baselines,
    ratio,
    ...(spec.ratioLabel && { ratioLabel: spec.ratioLabel }),
    goal: spec.goal,
    met,
    ...(spec.measure && { measure: spec.measure }),
    ...(spec.note && { note: spec.note }),
  };
}

/**
 * A row whose goal is an added cost over a baseline (`ours - against <= maxAdded`, same unit), e.g.
 * a cold import at most 15 ms over `node -e 0`. The ratio column shows the ratio and the difference.
 * `added`, when given, is the difference measured in pairs (the median of each run minus its own
 * baseline run), which the goal is judged on instead of the difference of the two medians.
 * @param {{ scenario: string, ours: Figure, baselines: Figure[], against: Figure, maxAdded: number, added?: number, goal: string, measure?: string, note?: string }} spec
 * @returns {Row}
 */
export function addedRow(spec) {
  const { ours, against } = spec;
  const known = ours.value !== null && against.value !== null;
  const added = spec.added ?? (known ? ours.value - against.value : null);
  return {
    scenario: spec.scenario,
    ours,
    baselines: spec.baselines,
    ratio: known && against.value ? ours.value / against.value : null,
    ...(added !== null && { ratioLabel: `(${added >= 0 ? '+' : ''}${added.toFixed(1)} ${ours.unit})` }),
    goal: spec.goal,
    met: added === null ? null : added <= spec.maxAdded,
    ...(spec.measure && { measure: spec.measure }),
    ...(spec.note && { note: spec.note }),
  };
}

/**
 * A row whose goal is an absolute limit on our figure (`ours < below`, or `ours <= max`).
 * @param {{ scenario: string, ours: Figure, baselines?: Figure[], below?: number, max?: number, goal: string, measure?: string, note?: string }} spec
 * @returns {Row}
 */
export function limitRow(spec) {
  return {
    scenario: spec.scenario,
    ours: spec.ours,
    baselines: spec.baselines ?? [],
    ratio: null,
    goal: spec.goal,
    met:
      spec.ours.value === null
        ? null
        : spec.max !== undefined
          ? spec.ours.value <= spec.max
          : spec.ours.value < (spec.below ?? Number.NaN),
    ...(spec.measure && { measure: spec.measure }),
    ...(spec.note && { note: spec.note }),
  };
}

/**
 * A report-only row (no goal).
 * @param {{ scenario: string, ours: Figure, baselines?: Figure[], ratio?: number | null, measure?: string, note?: string }} spec
 * @returns {Row}
 */
export function reportRow(spec) {
  return {
    scenario: spec.scenario,
    ours: spec.ours,
    baselines: spec.baselines ?? [],
    ratio: spec.ratio ?? null,
    goal: 'report',
    met: null,
    ...(spec.measure && { measure: spec.measure }),
    ...(spec.note && { note: spec.note }),
  };
}

/**
 * The row of a scenario whose code under test does not exist (yet): shown, never fatal.
 * @param {string} scenario
 * @param {string} goal
 * @param {string} why
 * @returns {Row}
 */
export function unavailableRow(scenario, goal, why) {
  return {
    scenario,
    ours: { name: 'ours', value: null, unit: '' },
    baselines: [],
    ratio: null,
    goal,
    met: null,
    note: `not available: ${why}`,
  };
}

/**
 * A scratch directory removed after `fn`, whatever happens.
 * @template T
 * @param {string} label
 * @param {(dir: string) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withScratch(label, fn) {
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-${label}-`));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
