import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStateFile } from '../../src/node/fs/checkpoint.js';
import { ROUNDS, WRITERS, writeCheckpointChild, writerStates } from '../helpers/checkpoint-writers.js';

/**
 * 20 writers replace one state file at once through the real checkpoint module and real fs, while
 * the test reads it over and over: every read must be one writer's whole state. A state is large
 * (about 200 kB) so a write in place would be caught half done.
 */
const { stateOf, textOf, whole: WHOLE } = writerStates(200_000);

/** A child writes the states of writers `first` .. `first + count - 1`, all at once, then exits. */
const CHILD = `
import { writeStateFile } from './checkpoint.mjs';
const [path, first, count, rounds] = process.argv.slice(2);
const stateOf = (writer, round) => ({ writer, round, pad: 'x'.repeat(200000 + writer) });
await Promise.all(Array.from({ length: Number(count) }, async (_, i) => {
  for (let r = 0; r < Number(rounds); r++) await writeStateFile(path, stateOf(Number(first) + i, r));
}));
`;

let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'svc-checkpoint-race-'));
  await writeCheckpointChild(root, CHILD);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Reads `path` until `done` settles; returns how many reads there were and those that were not a whole state. */
async function watch(path: string, done: Promise<unknown>): Promise<{ reads: number; torn: string[] }> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const torn: string[] = [];
  let reads = 0;
  while (!finished) {
    const text = await readFile(path, 'utf8');
    reads += 1;
    if (!WHOLE.has(text)) torn.push(`${text.length} chars: ${text.slice(0, 40)}`);
  }
  return { reads, torn };
}

function freshState(name: string): { dir: string; path: string } {
  const dir = mkdtempSync(join(root, `${name}-`));
  const path = join(dir, 'state.json');
  writeFileSync(path, textOf(0, 0));
  return { dir, path };
}

describe('a state file is always one writer’s whole state, whatever number of writers replace it at once', () => {
  it('20 writers in one process (Promise.all), 5 rounds each', async () => {
    const { dir, path } = freshState('in-process');
    const writers = Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let r = 0; r < ROUNDS; r++) await writeStateFile(path, stateOf(w, r));
        return w;
      }),
    );
    const { reads, torn } = await watch(path, writers);
    expect(await writers).toHaveLength(WRITERS);
    expect(torn).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(WHOLE.has(await readFile(path, 'utf8'))).toBe(true);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('20 writers in 4 child processes, 5 rounds each', async () => {
    const { dir, path } = freshState('processes');
    const per = WRITERS / 4;
    const children = Promise.all(
      Array.from(
        { length: 4 },
        (_, c) =>
          new Promise<number | null>((resolve, reject) => {
            const child = spawn(
              process.execPath,
              [join(root, 'child.mjs'), path, String(c * per), String(per), String(ROUNDS)],
              { stdio: ['ignore', 'ignore', 'inherit'] },
            );
            child.on('error', reject);
            child.on('exit', resolve);
          }),
      ),
    );
    const { reads, torn } = await watch(path, children);
    expect(await children).toEqual([0, 0, 0, 0]);
    expect(torn).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(WHOLE.has(await readFile(path, 'utf8'))).toBe(true);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});
