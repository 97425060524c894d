// Cold start: `svc --version`, `svc --help` and cold imports of `svc-sdk/botcheck` and `svc-sdk`
// vs `node -e 0`, measured by bench/cold-start.js (interleaved rounds, medians).
import { IMPORT_TARGET_MS, measureColdStart, TARGET_RATIO } from '../cold-start.js';
import { addedRow, ratioRow } from '../lib/rows.js';
import { ROOT } from '../lib/server.js';

export const name = 'cold-start';

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const rounds = quick ? 5 : 10;
  const result = measureColdStart({ rounds, root: ROOT });
  log(`  medians (ms): ${JSON.stringify(result.medianMs)}`);
  const node = { name: 'node -e 0', value: result.medianMs.node, unit: 'ms' };
  const row = (cmd) =>
    ratioRow({
      scenario: `cold start svc ${cmd}, median of ${rounds}`,
      ours: { name: 'ours', value: result.medianMs[cmd.slice(2)], unit: 'ms' },
      baselines: [node],
      against: node,
      max: TARGET_RATIO,
      goal: `<= ${TARGET_RATIO}x node -e 0`,
    });
  const imported = (entry, key) =>
    addedRow({
      scenario: `cold import('${entry}'), median of ${rounds}`,
      ours: { name: 'ours', value: result.medianMs[key], unit: 'ms' },
      baselines: [node],
      against: node,
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
