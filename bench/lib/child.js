import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './server.js';

const GNU_TIME = '/usr/bin/time';
const HAS_GNU_TIME = existsSync(GNU_TIME);
const CPU_REPORT = new URL('./cpu-report.js', import.meta.url).href;

/** Peak resident set of a live process from /proc, in KiB (0 once it is gone). */
function vmHwmKb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+) kB/m.exec(status) ?? /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * CPU time (user + system) a live process has used so far, in ms, from /proc/PID/stat (Linux;
 * clock ticks taken as 100 a second, the kernel's USER_HZ); null where /proc cannot tell. For a
 * process of the bench's own (a store stand-in) whose CPU competes with the measured run's.
 * @param {number} pid
 * @returns {number | null}
 */
export function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * Runs `node <args>` to completion and measures wall time and peak RSS of that node process.
 * GNU time reports the kernel's max RSS exactly; without it /proc is polled every 50 ms. With
 * `cpu`, the process also reports its own CPU time at exit (bench/lib/cpu-report.js): `cpuMs`,
 * null when it died before reporting.
 * @param {string[]} args arguments after `node`
 * @param {{ env?: Record<string, string>, cpu?: boolean }} [options]
 * @returns {Promise<{ code: number | null, wallMs: number, peakRssMb: number, cpuMs: number | null, stdout: string, stderr: string }>}
 */
export async function runNode(args, options = {}) {
  const dir = HAS_GNU_TIME || options.cpu ? mkdtempSync(join(tmpdir(), 'svc-bench-time-')) : undefined;
  const timeFile = dir && HAS_GNU_TIME ? join(dir, 'rss') : undefined;
  const cpuFile = dir && options.cpu ? join(dir, 'cpu.json') : undefined;
  const nodeArgs = cpuFile ? ['--import', CPU_REPORT, ...args] : args;
  const [command, argv] = timeFile
    ? [GNU_TIME, ['-f', '%M', '-o', timeFile, process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const started = performance.now();
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, ...options.env, ...(cpuFile && { SVC_BENCH_CPU_FILE: cpuFile }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => {
    stdout = (stdout + c).slice(-20_000);
  });
  child.stderr.on('data', (c) => {
    stderr = (stderr + c).slice(-20_000);
  });
  let polledKb = 0;
  const poll = timeFile
    ? undefined
    : setInterval(() => {
        polledKb = Math.max(polledKb, vmHwmKb(child.pid));
      }, 50);
  const code = await new Promise((resolve) => child.once('close', (c) => resolve(c)));
  const wallMs = performance.now() - started;
  if (poll) clearInterval(poll);
  let peakKb = polledKb;
  if (timeFile) {
    // GNU time appends "Command exited with non-zero status N" before the figure on failure.
    const lines = readFileSync(timeFile, 'utf8').trim().split('\n');
    peakKb = Number(lines[lines.length - 1]) || 0;
  }
  const cpuMs = cpuFile ? readCpuMs(cpuFile) : null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  return { code, wallMs, peakRssMb: peakKb / 1024, cpuMs, stdout, stderr };
}

/** User plus system CPU time from bench/lib/cpu-report.js's file, ms (null without the file). */
function readCpuMs(file) {
  try {
    const { userUs, systemUs } = JSON.parse(readFileSync(file, 'utf8'));
    return (userUs + systemUs) / 1000;
  } catch {
    return null;
  }
}

/**
 * Like {@link runNode}, but a non-zero exit is an error carrying the child's last stderr lines.
 * @param {string} what
 * @param {string[]} args
 * @param {Parameters<typeof runNode>[1]} [options]
 */
export async function runNodeOk(what, args, options) {
  const run = await runNode(args, options);
  if (run.code !== 0) {
    const tail = run.stderr.trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${what} exited with ${run.code}: ${tail}`);
  }
  return run;
}
