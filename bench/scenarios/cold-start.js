// CLI cold start: `svc --version` and `svc --help` vs `node -e 0`, measured by bench/cold-start.js
// (interleaved rounds, medians).
import { measureColdStart, TARGET_RATIO } from '../cold-start.js';
import { ratioRow } from '../lib/rows.js';
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
  return { rows: [row('--version'), row('--help')], raw: result };
}
