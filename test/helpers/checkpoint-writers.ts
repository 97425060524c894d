import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './build.js';

/** How many writers replace one state file at once, and how many states each writes. */
export const WRITERS = 20;
export const ROUNDS = 5;

/**
 * The states the writers of a race write (`pad` characters make each large, so a write in place
 * would be caught half done), and every whole state file text they can leave.
 */
export function writerStates(pad: number) {
  const stateOf = (writer: number, round: number) => ({ writer, round, pad: 'x'.repeat(pad + writer) });
  const textOf = (writer: number, round: number) => `${JSON.stringify(stateOf(writer, round), null, 2)}\n`;
  const whole = new Set(
    Array.from({ length: WRITERS }, (_, w) => Array.from({ length: ROUNDS }, (_, r) => textOf(w, r))).flat(),
  );
  return { stateOf, textOf, whole };
}

/**
 * Puts the real checkpoint module (src/node/fs/checkpoint.ts, bundled as `checkpoint.mjs`) and a
 * child script `child.mjs` that imports it into `dir`, for processes of another Node to run.
 */
export async function writeCheckpointChild(dir: string, child: string): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'src/node/fs/checkpoint.ts')],
    outfile: join(dir, 'checkpoint.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  writeFileSync(join(dir, 'child.mjs'), child);
}
