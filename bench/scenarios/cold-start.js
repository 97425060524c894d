// Cold start: `svc --version`, `svc --help` and cold imports of `svc-sdk/botcheck` and `svc-sdk`
// vs `node -e 0`, measured by bench/cold-start.js: each run paired with a `node -e 0` run just
// before it; the goals are judged on the median of the pairs. Then what each import loads (modules
// and bytes of JavaScript, bench/import-budget.js): the same on every run of one build.
import { IMPORT_TARGET_MS, measureColdStart, TARGET_RATIO } from '../cold-start.js';
import { BOTCHECK_MAX_BYTES, measureImportBudget } from '../import-budget.js';
import { addedRow, limitRow, ratioRow, reportRow } from '../lib/rows.js';
import { ROOT } from '../lib/server.js';

export const name = 'cold-start';

/** @param {{ quick: boolean, log: (line: string) => void }} ctx */
export async function run({ quick, log }) {
  const rounds = quick ? 5 : 40;
  const result = measureColdStart({ rounds, root: ROOT });
  log(
    `  medians (ms): ${JSON.stringify(result.medianMs)}; pairs: ${JSON.stringify({ ratio: result.ratio, addedMs: result.addedMs })}`,
  );
  const budget = measureImportBudget({ root: ROOT });
  const budgetText = (b) => `${b.modules} modules, ${b.bytes} bytes`;
  log(`  loaded: botcheck ${budgetText(budget.botcheck)}; root ${budgetText(budget.root)}`);
  const node = { name: 'node -e 0', value: result.medianMs.node, unit: 'ms' };
  const pairs = `median of ${rounds} pairs`;
  const row = (cmd) =>
    ratioRow({
      scenario: `cold start svc ${cmd}, ${rounds} pairs`,
      ours: { name: 'ours', value: result.medianMs[cmd.slice(2)], unit: 'ms' },
      baselines: [node],
      against: node,
      ratio: result.ratio[cmd.slice(2)],
      max: TARGET_RATIO,
      goal: `<= ${TARGET_RATIO}x node -e 0`,
      measure: pairs,
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
      measure: pairs,
    });
  const kb = (bytes) => bytes / 1000;
  const loadedNote = (b) =>
    `${b.modules} modules, ${b.bytes.toLocaleString('en-US')} bytes, counted by a node:module load hook${b.unseenRequires ? '; CommonJS require()s inside not seen on this Node (needs module.registerHooks)' : ''}`;
  const loaded = (entry, key) => ({
    scenario: `import('${entry}'): JavaScript loaded, ${budget[key].modules} modules`,
    ours: { name: 'ours', value: kb(budget[key].bytes), unit: 'KB' },
    measure: 'bytes loaded (load hook)',
    note: loadedNote(budget[key]),
  });
  return {
    rows: [
      row('--version'),
      row('--help'),
      imported('svc-sdk/botcheck', 'botcheck'),
      imported('svc-sdk', 'root'),
      limitRow({
        ...loaded('svc-sdk/botcheck', 'botcheck'),
        max: kb(BOTCHECK_MAX_BYTES),
        goal: `<= ${kb(BOTCHECK_MAX_BYTES)} KB`,
      }),
      reportRow(loaded('svc-sdk', 'root')),
    ],
    raw: { ...result, importBudget: budget },
  };
}
