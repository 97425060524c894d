import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runNode } from './child.js';
import { ROOT, SVC_BIN } from './server.js';

const DIST = pathToFileURL(join(ROOT, 'dist', 'index.js'));

/**
 * Whether the built CLI has a command (its `--help` exits 0 and names every flag given).
 * @param {string[]} command e.g. ['audit', 'export']
 * @param {string[]} flags e.g. ['--page-size', '--out']
 * @returns {Promise<string | undefined>} why not, or undefined when it is there
 */
export async function missingCommand(command, flags = []) {
  const run = await runNode([SVC_BIN, ...command, '--help']);
  const name = `svc ${command.join(' ')}`;
  if (run.code !== 0) return `${name} is not built (--help exited ${run.code})`;
  // commander prints the parent's help for an unknown subcommand only on error; check the usage line.
  if (!run.stdout.includes(`Usage: svc ${command.join(' ')}`)) return `${name} is not a command`;
  const absent = flags.filter((f) => !run.stdout.includes(f));
  return absent.length ? `${name} lacks ${absent.join(', ')}` : undefined;
}

/**
 * The built library (dist/index.js), or why it cannot be loaded.
 * @returns {Promise<{ lib?: any, why?: string }>}
 */
export async function loadLibrary() {
  if (!existsSync(fileURLToPath(DIST))) return { why: 'dist/index.js is missing; run npm run build' };
  try {
    return { lib: await import(DIST.href) };
  } catch (error) {
    return { why: `dist/index.js failed to load: ${error instanceof Error ? error.message : error}` };
  }
}
