// Cold start: `svc --version`, `svc --help` and cold imports of `svc-sdk/botcheck` and `svc-sdk`
// vs `node -e 0`, measured by bench/cold-start.js: each run paired with a `node -e 0` run just
// before it; the goals are judged on the median of the pairs.
import { IMPORT_TARGET_MS, measureColdStart, TARGET_RATIO } from '../cold-start.js';
import { addedRow, ratioRow } from '../lib/rows.js';
import { ROOT } from '../lib/server.js';

export const name = 'cold-start';

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const rounds = quick ? 5 : 40;
  const result = measureColdStart({ rounds, root: ROOT });
  log(
    `  medians (ms): ${JSON.stringify(result.medianMs)}; pairs: ${JSON.stringify({ ratio: result.ratio, addedMs: result.addedMs })}`,
  );
  const node = { name: 'node -e 0', value: result.medianMs.node, unit: 'ms' };
  const row = (cmd) =>
    ratioRow({
      scenario: `cold start svc ${cmd}, ${rounds} pairs`,
      ours: { name: 'ours', value: result.medianMs[cmd.slice(2)], unit: 'ms' },
      baselines: [node],
      against: node,
      ratio: result.ratio[cmd.slice(2)],
      max: TARGET_RATIO,
      goal: `<= ${TARGET_RATIO}x node -e 0`,
    });
  const imported = (entry, key) =>
    addedRow({
      scenario: `cold import('${entry}'), ${rounds} pairs`,
      ours: { name: 'ours', value: result.medianMs[key], unit: 'ms' },
      baselines: [node],
      against: node,
      added: result.addedMs[key],
      maxAdded: IMPORT_TARGET_MS[key],
      goal: `<= node -e 0 + ${IMPORT_TARGET_MS[key]} ms`,
    });
  return {
    rows: [
      row('--version'),
      row('--help'),
      imported('svc-sdk/botcheck', 'botcheck'),
      imported('svc-sdk', 'root'),
    ],
    raw: result,
  };
}
