import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build.js';
import { runBlocks } from '../helpers/workflow-steps.js';

const yml = readFileSync(join(ROOT, 'examples', 'release', 'github-actions.yml'), 'utf8');
const DIST_EXE = join(ROOT, 'dist-exe');

describe('example release/github-actions.yml: current, on a published release, least rights', () => {
  it('runs when a release is published, with write access to contents only', () => {
    expect(yml).toMatch(/\non:\n\s+release:\n\s+types: \[published\]\n/);
    expect(yml).toMatch(/\npermissions:\n\s+contents: write\n\njobs:/);
  });

  it('current action majors, Node 24, from the lockfile, then npm run build:exe', () => {
    expect(yml).toContain('uses: actions/checkout@v5');
    expect(yml).toMatch(/uses: actions\/setup-node@v5\n\s+with:\n\s+node-version: 24/);
    expect(yml).toContain('uses: actions/cache@v4');
    expect(yml).not.toMatch(/@v[0-3]\b/);
    expect(yml).toContain('- run: npm ci');
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts['build:exe']).toContain('scripts/build-exe.js');
    expect(runBlocks(yml).map((b) => [b.name, b.script])).toContainEqual([
      'Build the binaries',
      'npm run build:exe\n',
    ]);
  });

  it('the token and the tag reach the scripts as variables, never spliced into them', () => {
    for (const block of runBlocks(yml)) expect(block.script).not.toContain('${{');
    expect(yml).toContain(`GH_TOKEN: $${'{{'} github.token }}`);
  });
});

// The steps after the build, as written, on what `npm run build:exe` really made (skipped with
// the reason without dist-exe/, failing under CI, like test/exe).
const built = existsSync(join(DIST_EXE, 'SHA256SUMS'));
if (!built) {
  if (process.env.CI === 'true') throw new Error('dist-exe/ is missing: CI runs npm run build:exe first');
  console.warn('skipped: the release steps need dist-exe/ (run npm run build:exe first)');
}

describe.runIf(built)(
  'example release/github-actions.yml: checks and attaches every file build:exe makes',
  () => {
    const work = mkdtempSync(join(tmpdir(), 'svc-release-'));
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    /** The steps after the build in `checkout` (a folder with dist-exe/ and package.json), `gh` a stand-in. */
    function release(checkout: string) {
      const bin = join(work, 'bin');
      mkdirSync(bin, { recursive: true });
      const recorded = join(work, 'gh-args.txt');
      rmSync(recorded, { force: true });
      writeFileSync(join(bin, 'gh'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${recorded}'\n`, { mode: 0o755 });
      const env = {
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: work,
        NO_COLOR: '1',
        GH_TOKEN: 'ghs_not_a_token',
        TAG: 'v9.9.9',
      };
      const codes: Record<string, number | null> = {};
      for (const block of runBlocks(yml)) {
        if (block.name === 'Build the binaries') continue;
        const run = spawnSync('bash', ['-e', '-c', block.script], { cwd: checkout, env, encoding: 'utf8' });
        codes[block.name] = run.status;
        if (run.status !== 0) break;
      }
      return {
        codes,
        uploaded: existsSync(recorded) ? readFileSync(recorded, 'utf8').trim().split('\n') : [],
      };
    }

    it('the sums and the version check pass, and all of dist-exe/ goes to the release', () => {
      const { codes, uploaded } = release(ROOT);
      expect(codes).toEqual({ 'Check the binaries': 0, 'Attach them to the release': 0 });
      const made = readdirSync(DIST_EXE)
        .map((name) => `dist-exe/${name}`)
        .sort();
      expect(made).toEqual(['dist-exe/SHA256SUMS', 'dist-exe/svc-linux-x64', 'dist-exe/svc-win-x64.exe']);
      expect(uploaded.slice(0, 3)).toEqual(['release', 'upload', 'v9.9.9']);
      expect(uploaded.slice(3, -1).sort()).toEqual(made);
    });

    it('a binary that does not match its sum stops the job before anything is attached', () => {
      const checkout = join(work, 'tampered');
      mkdirSync(join(checkout, 'dist-exe'), { recursive: true });
      symlinkSync(join(ROOT, 'package.json'), join(checkout, 'package.json'));
      for (const name of readdirSync(DIST_EXE)) {
        if (name !== 'SHA256SUMS') symlinkSync(join(DIST_EXE, name), join(checkout, 'dist-exe', name));
      }
      const sums = readFileSync(join(DIST_EXE, 'SHA256SUMS'), 'utf8');
      // One hex digit of the .exe's sum changed.
      const flipped = sums.replace(/^([0-9a-f])(.*svc-win-x64\.exe)$/m, (_, first: string, rest: string) => {
        return `${first === '0' ? '1' : '0'}${rest}`;
      });
      expect(flipped).not.toBe(sums);
      writeFileSync(join(checkout, 'dist-exe', 'SHA256SUMS'), flipped);
      const { codes, uploaded } = release(checkout);
      expect(codes['Check the binaries']).not.toBe(0);
      expect(codes).not.toHaveProperty('Attach them to the release');
      expect(uploaded).toEqual([]);
    });
  },
);
