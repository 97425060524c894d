import { fmt } from './stats.js';

/** A figure as text: thousands separators, decimals only for small numbers. */
export function figure(f) {
  if (f.value === null || f.value === undefined || Number.isNaN(f.value)) return 'n/a';
  const digits = Math.abs(f.value) >= 100 ? 0 : Math.abs(f.value) >= 10 ? 1 : 2;
  return `${fmt(f.value, digits)} ${f.unit}`.trim();
}

/**
 * The results table as lines of text (scenario, ours, baselines, ratio, goal, met?, and `decided
 * by`: the figure the goal is judged on), with each row's note under it.
 * @param {import('./rows.js').Row[]} rows
 * @returns {string}
 */
export function renderTable(rows) {
  // `decided by` only when some row names its measure (scenarios outside bench/run.js may not).
  const withMeasure = rows.some((r) => r.measure);
  const head = [
    'scenario',
    'ours',
    'baseline(s)',
    'ratio',
    'goal',
    'met?',
    ...(withMeasure ? ['decided by'] : []),
  ];
  const cells = rows.map((r) => [
    r.scenario,
    figure(r.ours),
    r.baselines.map((b) => `${b.name} ${figure(b)}`).join('; ') || '-',
    r.ratio === null ? '-' : `${r.ratio.toFixed(2)}x${r.ratioLabel ? ` ${r.ratioLabel}` : ''}`,
    r.goal,
    r.met === null ? '-' : r.met ? 'yes' : 'NO',
    ...(withMeasure ? [r.measure ?? '-'] : []),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) =>
    c
      .map((v, i) => v.padEnd(widths[i]))
      .join(' | ')
      .trimEnd();
  const out = [line(head), widths.map((w) => '-'.repeat(w)).join('-|-')];
  cells.forEach((c, k) => {
    out.push(line(c));
    const note = rows[k].note;
    if (note) out.push(`    ${note}`);
  });
  return out.join('\n');
}
