import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUNDS, WRITERS, writeCheckpointChild, writerStates } from '../helpers/checkpoint-writers.js';
import { useWinePrefix, WINDOWS_NODE, wineMissing, winPath } from '../helpers/windows.js';

// Issue 36: Windows refuses to rename over a file another handle holds open (EPERM), which broke
// concurrent checkpoint writes. Under Windows Node, 20 writers replace one state file at once
// through the real checkpoint module while a reader in the same process keeps opening it (so
// renames meet an open handle) and this test reads it from Linux: every writer finishes, every
// read is one writer's whole state. test/node/checkpoint-concurrency.test.ts does the same on Linux.

const { textOf, whole: WHOLE } = writerStates(50_000);

/** Writers and a reader in one Windows process; prints what each side saw as one JSON line. */
const CHILD = `
import { readFile } from 'node:fs/promises';
import { writeStateFile } from './checkpoint.mjs';
const [path, writers, rounds] = process.argv.slice(2);
const stateOf = (writer, round) => ({ writer, round, pad: 'x'.repeat(50000 + writer) });
const whole = new Set();
for (let w = 0; w < Number(writers); w++)
  for (let r = 0; r < Number(rounds); r++) whole.add(JSON.stringify(stateOf(w, r), null, 2) + '\\n');
let done = false;
const reads = { count: 0, torn: 0, refused: 0 };
const reader = (async () => {
  while (!done) {
    try {
      const text = await readFile(path, 'utf8');
      reads.count += 1;
      if (!whole.has(text)) reads.torn += 1;
    } catch (error) {
      // Windows may refuse to open a file during the instant it is renamed over.
      reads.refused += 1;
    }
  }
})();
const results = await Promise.allSettled(Array.from({ length: Number(writers) }, async (_, w) => {
  for (let r = 0; r < Number(rounds); r++) await writeStateFile(path, stateOf(w, r));
}));
done = true;
await reader;
const failed = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason?.message ?? r.reason));
console.log(JSON.stringify({ finished: results.length - failed.length, failed: failed.slice(0, 3), reads }));
`;

describe.skipIf(wineMissing)(
  'a state file is always one writer’s whole state under Windows Node, 20 writers at once',
  () => {
    const wine = useWinePrefix();
    let dir: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(wine().scratch, 'checkpoint-'));
      await writeCheckpointChild(dir, CHILD);
    });

    it('20 writers, 5 rounds each, a reader in the same process and one on Linux: all finish, no read torn', async () => {
      const path = join(dir, 'state.json');
      writeFileSync(path, textOf(0, 0));
      let finished = false;
      const child = wine()
        .exec(WINDOWS_NODE, [winPath(join(dir, 'child.mjs')), winPath(path), String(WRITERS), String(ROUNDS)])
        .finally(() => {
          finished = true;
        });
      const torn: string[] = [];
      let reads = 0;
      while (!finished) {
        const text = await readFile(path, 'utf8');
        reads += 1;
        if (!WHOLE.has(text)) torn.push(`${text.length} chars: ${text.slice(0, 40)}`);
      }
      const run = await child;
      expect(run.stderr).toBe('');
      const seen = JSON.parse(run.stdout) as {
        finished: number;
        failed: string[];
        reads: { count: number; torn: number; refused: number };
      };
      expect(seen.failed).toEqual([]);
      expect(seen.finished).toBe(WRITERS);
      expect(seen.reads.torn).toBe(0);
      expect(seen.reads.count).toBeGreaterThan(0);
      expect(torn).toEqual([]);
      expect(reads).toBeGreaterThan(0);
      expect(WHOLE.has(readFileSync(path, 'utf8'))).toBe(true);
      expect(readdirSync(dir).sort()).toEqual(['checkpoint.mjs', 'child.mjs', 'state.json']);
    }, 120_000);
  },
);
