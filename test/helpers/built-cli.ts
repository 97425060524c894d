import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
export const BIN = join(root, 'bin', 'svc.js');

export { ensureBuilt } from './build.js';

/** Starts `node bin/svc.js ...` with collected output. */
export function spawnSvc(
  args: string[],
  env: Record<string, string>,
): ChildProcess & { output: () => { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { output: () => { stdout: string; stderr: string } };
  child.output = collectOutput(child);
  return child;
}

/** Collects the stdout and stderr of a child as text; the getter gives what arrived so far. */
export function collectOutput(child: ChildProcess): () => { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return () => ({ stdout, stderr });
}

/** Resolves with the exit code (or signal name) of a child. */
export function exited(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1));
  });
}

/** What one measured run of the built CLI ended with. */
export interface MeasuredRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the child process, in MB, as the child itself reported at exit. */
  peakMb: number;
}

/**
 * Runs `node bin/svc.js ...` with a preload that records the child's peak RSS; `cwd` also holds the
 * file the peak is written to. The environment is only PATH, HOME=cwd, NO_COLOR and `env`.
 * Node is started by a shell, not by this process: on Linux a child forked from this (large) test
 * process starts with its resident size and keeps that peak across exec, a shell's child does not.
 */
export function runSvcMeasured(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<MeasuredRun> {
  const peakFile = join(cwd, `.peak-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const child = spawn(
    '/bin/sh',
    // Not the last command, so the shell forks node rather than replacing itself by it.
    [
      '-c',
      '"$0" "$@"; exit $?',
      process.execPath,
      '--require',
      join(import.meta.dirname, 'peak-rss.cjs'),
      BIN,
      ...args,
    ],
    {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, NO_COLOR: '1', SVC_PEAK_FILE: peakFile, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = collectOutput(child);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const { stdout, stderr } = output();
      let peakMb = Number.NaN;
      try {
        peakMb = Number(readFileSync(peakFile, 'utf8'));
        rmSync(peakFile);
      } catch {}
      resolve({ code, stdout, stderr, peakMb });
    });
  });
}
