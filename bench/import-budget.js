#!/usr/bin/env node
// What a cold import loads: the modules and bytes of JavaScript Node's loader reads for
// `import('svc-sdk/botcheck')` and `import('svc-sdk')`, counted by a load hook (node:module), one
// fresh process per entry. Unlike milliseconds on a shared machine, the figure is the same on
// every run of one build. Goal (issue 42): the bot-check entry loads at most 150 KB (150,000 bytes).
// Needs a build (`npm run build`).
// usage: node bench/import-budget.js; the last stdout line is the result as JSON.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHILD = fileURLToPath(new URL('./lib/import-budget-child.js', import.meta.url));

/** Most JavaScript `import('svc-sdk/botcheck')` may load, in bytes. */
export const BOTCHECK_MAX_BYTES = 150_000;

/** The entries measured: the files `svc-sdk/botcheck` and `svc-sdk` resolve to under `import`. */
export const ENTRIES = { botcheck: 'dist/botcheck.js', root: 'dist/index.js' };

/**
 * The modules one import loads.
 * @param {string} file absolute path of the entry
 * @returns {{ modules: number, bytes: number, unseenRequires: boolean, loaded: { url: string, format: string | null, bytes: number | null, fromLoader: boolean }[] }}
 */
export function importBudget(file) {
  const res = spawnSync(process.execPath, [CHILD, pathToFileURL(file).href], { encoding: 'utf8' });
  if (res.status !== 0)
    throw new Error(`import-budget-child ${file} exited with ${res.status}: ${res.stderr}`);
  const loaded = JSON.parse(res.stdout.trim().split('\n').pop() ?? '[]');
  // Builtins are part of the node binary, not JavaScript read for the import (and Node 20's
  // off-thread hooks do not report them).
  const code = loaded.filter((m) => m.format !== 'builtin' && !m.url.startsWith('node:'));
  return {
    modules: code.length,
    bytes: code.reduce((sum, m) => sum + (m.bytes ?? 0), 0),
    unseenRequires: code.some((m) => !m.fromLoader),
    loaded,
  };
}

/**
 * Both entries' budgets.
 * @param {{ root?: string }} [options] the package root holding dist/ (default: this repository)
 */
export function measureImportBudget(options = {}) {
  const root = options.root ?? ROOT;
  if (!existsSync(join(root, ENTRIES.root)))
    throw new Error('dist/index.js is missing: run `npm run build` first');
  return {
    bench: 'import-budget',
    node: process.version,
    botcheck: importBudget(join(root, ENTRIES.botcheck)),
    root: importBudget(join(root, ENTRIES.root)),
    botcheckMaxBytes: BOTCHECK_MAX_BYTES,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const result = measureImportBudget();
    console.log(`JavaScript loaded by a cold import (${result.node}, load hook)`);
    for (const [name, b] of [
      ['svc-sdk/botcheck', result.botcheck],
      ['svc-sdk', result.root],
    ]) {
      console.log(`  import('${name}')  ${b.modules} modules, ${b.bytes.toLocaleString('en-US')} bytes`);
    }
    const met = result.botcheck.bytes <= BOTCHECK_MAX_BYTES;
    console.log(
      `  target: /botcheck <= ${BOTCHECK_MAX_BYTES.toLocaleString('en-US')} bytes: ${met ? 'met' : 'NOT met'}`,
    );
    console.log(
      JSON.stringify({
        ...result,
        botcheck: { ...result.botcheck, loaded: undefined },
        root: { ...result.root, loaded: undefined },
      }),
    );
  } catch (error) {
    console.error(`import-budget: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
