import { mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CheckpointError,
  Checkpointer,
  readStateFile,
  replaceFileAtomic,
} from '../../src/node/fs/checkpoint.js';
import { DurableOutput } from '../../src/node/fs/output-file.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'svc-checkpoint-'));

describe('the state file is replaced atomically through an unpredictable, exclusive, private temporary file', () => {
  it('leaves only the target, mode 0600, with the new content', async () => {
    const dir = fresh();
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    await replaceFileAtomic(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('does not follow a link planted at a guessable temporary name', async () => {
    const dir = fresh();
    const path = join(dir, 'state.json');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, `${path}.tmp-${process.pid}`);
    symlinkSync(victim, `${path}.tmp`);
    await replaceFileAtomic(path, 'state');
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(readFileSync(path, 'utf8')).toBe('state');
  });

  it('many replacements at once do not trip over each other', async () => {
    const dir = fresh();
    const path = join(dir, 'state.json');
    const texts = Array.from({ length: 20 }, (_, i) => `v${i}`);
    await Promise.all(texts.map((t) => replaceFileAtomic(path, t)));
    expect(texts).toContain(readFileSync(path, 'utf8'));
    expect(readdirSync(dir)).toEqual(['state.json']);
  });
});

describe('a state file is read back checked by its schema', () => {
  const Schema = z.object({ version: z.literal(1), n: z.number() });
  const messages = { notJson: 'not json', notState: 'not a state' };

  it('missing: undefined; valid: the state', async () => {
    const dir = fresh();
    expect(await readStateFile(join(dir, 'none.json'), Schema, messages)).toBeUndefined();
    writeFileSync(join(dir, 's.json'), '{"version":1,"n":3}');
    expect(await readStateFile(join(dir, 's.json'), Schema, messages)).toEqual({ version: 1, n: 3 });
  });

  it('not JSON or not the schema: a CheckpointError with the given message and code', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'a.json'), '{');
    writeFileSync(join(dir, 'b.json'), '{"version":2}');
    const a = await readStateFile(join(dir, 'a.json'), Schema, messages).catch((e: unknown) => e);
    expect(a).toBeInstanceOf(CheckpointError);
    expect(a).toMatchObject({ message: 'not json', code: 'bad_state' });
    const b = await readStateFile(join(dir, 'b.json'), Schema, { ...messages, code: 'config' }).catch(
      (e: unknown) => e,
    );
    expect(b).toMatchObject({ message: 'not a state', code: 'config' });
  });
});

describe('an output resumes at the recorded size: cut back, never grown', () => {
  it('truncates what a crash left after the checkpoint and appends from there', async () => {
    const dir = fresh();
    const path = join(dir, 'out');
    writeFileSync(path, 'line1\nline2\npartial');
    const out = await DurableOutput.open(path, 12);
    expect(out.size).toBe(12);
    await out.append('line3\n');
    await out.close();
    expect(readFileSync(path, 'utf8')).toBe('line1\nline2\nline3\n');
  });

  it('a missing or shorter output is a resume_failed CheckpointError', async () => {
    const dir = fresh();
    await expect(DurableOutput.open(join(dir, 'none'), 0)).rejects.toMatchObject({ code: 'resume_failed' });
    writeFileSync(join(dir, 'short'), 'abc');
    const error = await DurableOutput.open(join(dir, 'short'), 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toMatch(/holds 3 bytes but the state file records 10/);
  });

  it('keeps the order of small and large appends', async () => {
    const dir = fresh();
    const path = join(dir, 'out');
    const out = await DurableOutput.open(path);
    const big = Buffer.alloc(100_000, 'b');
    await out.append('a');
    await out.append(big);
    await out.append('c');
    expect(out.size).toBe(100_002);
    await out.close();
    expect(readFileSync(path).equals(Buffer.concat([Buffer.from('a'), big, Buffer.from('c')]))).toBe(true);
  });
});

describe('checkpoints are grouped: every N steps or T ms, and the state names only synced bytes', () => {
  async function setup(policy: { everySteps?: number; everyMs?: number }) {
    const dir = fresh();
    const path = join(dir, 'out');
    const statePath = join(dir, 'state.json');
    const out = await DurableOutput.open(path);
    let now = 0;
    const checkpoints = new Checkpointer({
      statePath,
      outputs: [out],
      state: () => ({ bytes: out.size }),
      policy,
      now: () => now,
    });
    const saved = () => JSON.parse(readFileSync(statePath, 'utf8')) as { bytes: number };
    return { path, out, checkpoints, saved, advance: (ms: number) => (now += ms) };
  }

  it('commits after everySteps steps, not before', async () => {
    const { out, checkpoints, saved, path } = await setup({ everySteps: 3, everyMs: 1000 });
    await checkpoints.commit();
    const committed: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      await out.append('x\n');
      committed.push(await checkpoints.step());
      await checkpoints.settled();
    }
    expect(committed).toEqual([false, false, true, false, false, true]);
    expect(saved().bytes).toBe(12);
    // What the state names is on disk (written and synced before the state was replaced).
    expect(statSync(path).size).toBeGreaterThanOrEqual(saved().bytes);
    await out.close();
  });

  it('commits when everyMs passed since the last commit', async () => {
    const { out, checkpoints, saved, advance } = await setup({
      everySteps: Number.POSITIVE_INFINITY,
      everyMs: 1000,
    });
    await checkpoints.commit();
    await out.append('a\n');
    advance(999);
    expect(await checkpoints.step()).toBe(false);
    expect(saved().bytes).toBe(0);
    advance(1);
    await out.append('b\n');
    expect(await checkpoints.step()).toBe(true);
    await checkpoints.settled();
    expect(saved().bytes).toBe(4);
    await out.close();
  });
});

describe('a checkpoint does not stop the run: the state is taken at once, synced and saved in the background', () => {
  /** An output whose fsync waits for the test to release it, and which can be made to fail. */
  async function slowSync() {
    const dir = fresh();
    const path = join(dir, 'out');
    const statePath = join(dir, 'state.json');
    const out = await DurableOutput.open(path);
    const realSync = out.syncWritten.bind(out);
    const syncs: { covered: number; stateBefore: string | undefined }[] = [];
    let release: (() => void) | undefined;
    let failWith: Error | undefined;
    out.syncWritten = async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      release = undefined;
      if (failWith) throw failWith;
      const covered = await realSync();
      syncs.push({ covered, stateBefore: readState(statePath) });
      return covered;
    };
    const checkpoints = new Checkpointer({
      statePath,
      outputs: [out],
      state: () => ({ bytes: out.size }),
      policy: { everySteps: 1, everyMs: 1000 },
      now: () => 0,
    });
    return {
      out,
      checkpoints,
      syncs,
      saved: () => readState(statePath),
      /** Waits until an fsync is held, then lets it go. */
      release: async () => {
        await until(() => release !== undefined);
        release?.();
      },
      /** Ends the test: fsyncs are no longer held. */
      close: () => {
        out.syncWritten = realSync;
        return out.close();
      },
      /** Whether an fsync is held now. */
      held: () => release !== undefined,
      fail: (error: Error) => {
        failWith = error;
      },
    };
  }
  const readState = (statePath: string) => {
    try {
      return readFileSync(statePath, 'utf8');
    } catch {
      return undefined;
    }
  };
  const bytesOf = (text: string | undefined) => (text === undefined ? undefined : JSON.parse(text).bytes);
  /** Lets queued callbacks and file operations run, without a timer. */
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setImmediate(resolve));
  };

  it('appends go on during the fsync; the state names only the bytes written before it was taken, all synced', async () => {
    const { out, checkpoints, syncs, saved, release, close } = await slowSync();
    await out.append('first\n');
    expect(await checkpoints.step()).toBe(true);
    // The commit is running: appending goes on.
    await out.append('second\n');
    expect(out.size).toBe(13);
    expect(saved()).toBeUndefined();
    await release();
    await checkpoints.settled();
    expect(syncs).toHaveLength(1);
    expect(bytesOf(saved())).toBe(6);
    // The state was written after the fsync, which covered at least the bytes it names.
    expect(syncs[0]?.stateBefore).toBeUndefined();
    expect(syncs[0]?.covered).toBeGreaterThanOrEqual(6);
    await close();
  });

  it('commit() waits for the running commit, then commits everything appended', async () => {
    const { out, checkpoints, saved, release, held, close } = await slowSync();
    await out.append('a\n');
    expect(await checkpoints.step()).toBe(true);
    await out.append('bb\n');
    let committed = false;
    const final = checkpoints.commit().then(() => {
      committed = true;
    });
    await release();
    // The final commit syncs again only after the background one saved its state.
    await until(held);
    expect(bytesOf(saved())).toBe(2);
    expect(committed).toBe(false);
    await release();
    await final;
    expect(bytesOf(saved())).toBe(5);
    await close();
  });

  it('a commit point reached while a commit runs waits for it, so commits stay where the policy puts them', async () => {
    const { out, checkpoints, saved, release, held, close } = await slowSync();
    await out.append('a\n');
    expect(await checkpoints.step()).toBe(true);
    await out.append('bb\n');
    let second: boolean | undefined;
    const stepping = checkpoints.step().then((started) => {
      second = started;
    });
    await release();
    await until(held);
    // The second commit started only after the first saved its state, with the state of its own point.
    expect(bytesOf(saved())).toBe(2);
    await stepping;
    expect(second).toBe(true);
    await release();
    await checkpoints.settled();
    expect(bytesOf(saved())).toBe(5);
    await close();
  });

  it('a failed background fsync is thrown by the next step and commit, and no later state is written', async () => {
    const { out, checkpoints, saved, release, fail, close } = await slowSync();
    await out.append('a\n');
    expect(await checkpoints.step()).toBe(true);
    await release();
    await checkpoints.settled();
    expect(bytesOf(saved())).toBe(2);
    await out.append('b\n');
    expect(await checkpoints.step()).toBe(true);
    fail(new Error('disk gone'));
    await release();
    await checkpoints.settled();
    await out.append('c\n');
    await expect(checkpoints.step()).rejects.toThrow('disk gone');
    await expect(checkpoints.commit()).rejects.toThrow('disk gone');
    expect(bytesOf(saved())).toBe(2);
    await close();
  });
});
