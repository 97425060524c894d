import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeCsv } from '../helpers/batch-data.js';
import { BIN, ensureBuilt, exited, spawnSvc } from '../helpers/built-cli.js';

const ROWS = 20_000;
const FD_LIMIT = 256;
const FD_BUDGET = 200;

beforeAll(() => ensureBuilt());

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Open descriptors of `pid` right now, or undefined once it has gone. */
function openFds(pid: number): number | undefined {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}

/** Resolves with the URL printed on the first stdout line of `svc serve`. */
function servedUrl(child: ReturnType<typeof spawnSvc>): Promise<string> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const match = /listening on (http:\/\/\S+)/.exec(child.output().stdout);
      if (match) {
        child.stdout?.off('data', look);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on('data', look);
    child.once('exit', (code) => reject(new Error(`svc serve exited ${code}: ${child.output().stderr}`)));
  });
}

// Counting descriptors needs /proc (Linux); elsewhere there is nothing to sample.
describe.skipIf(!existsSync('/proc/self/fd'))(
  'batch --wait keeps its descriptors bounded: webhooks and confirmations reuse connections',
  () => {
    it(`${ROWS} rows under ulimit -n ${FD_LIMIT} complete, both processes stay under ${FD_BUDGET} descriptors`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-wait-fds-'));
      const input = join(dir, 'in.csv');
      const out = join(dir, 'out.ndjson');
      const { text, kinds } = makeCsv(ROWS);
      writeFileSync(input, text);

      const server = spawnSvc(['serve', '--port', '0'], {});
      children.push(server);
      const url = await servedUrl(server);

      const started = Date.now();
      // The batch runs under the descriptor limit of a default macOS shell; `exec` keeps its pid.
      const batch = spawn(
        'bash',
        [
          '-c',
          `ulimit -n ${FD_LIMIT}; exec "$@"`,
          'bash',
          process.execPath,
          BIN,
          '--base-url',
          url,
          '--api-key',
          'ak_demo_project',
          '-q',
          'batch',
          input,
          '--wait',
          '--register',
          url,
          '--out',
          out,
        ],
        {
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      children.push(batch);
      let stderr = '';
      batch.stderr?.on('data', (c: Buffer) => {
        stderr += c.toString();
      });

      const serverPid = server.pid as number;
      const batchPid = batch.pid as number;
      const peak = { server: 0, batch: 0, samples: 0 };
      let batchLimit = '';
      const sample = () => {
        peak.server = Math.max(peak.server, openFds(serverPid) ?? 0);
        peak.batch = Math.max(peak.batch, openFds(batchPid) ?? 0);
        peak.samples += 1;
        if (!batchLimit) {
          try {
            batchLimit =
              /Max open files\s+(\d+)/.exec(readFileSync(`/proc/${batchPid}/limits`, 'utf8'))?.[1] ?? '';
          } catch {
            // The process has not started or has already gone.
          }
        }
      };
      const sampler = setInterval(sample, 50);
      const code = await exited(batch);
      clearInterval(sampler);
      const seconds = (Date.now() - started) / 1000;

      const stats = (await (await fetch(`${url}/__admin/stats`)).json()) as {
        webhooksSent: number;
        webhooksFailed: number;
      };
      server.kill('SIGTERM');
      expect(await exited(server)).toBe(0);

      console.log(
        `batch --wait, ${ROWS} rows, ulimit -n ${batchLimit}: ${seconds.toFixed(1)} s; peak open descriptors: ` +
          `svc serve ${peak.server}, svc batch ${peak.batch} (${peak.samples} samples); ` +
          `webhooks sent ${stats.webhooksSent}, failed ${stats.webhooksFailed}`,
      );
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(batchLimit).toBe(String(FD_LIMIT));
      expect(peak.samples).toBeGreaterThan(10);
      expect(peak.server).toBeLessThan(FD_BUDGET);
      expect(peak.batch).toBeLessThan(FD_BUDGET);

      const rows = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { row: number; status: string });
      expect(rows).toHaveLength(ROWS);
      const statuses = rows.map((r) => r.status);
      // Structurally bad rows never reach the server; every other row has its confirmed outcome
      // (wrong check digits are sent and come back INVALID).
      const structural = kinds.filter((k) => k === 'structural').length;
      expect(statuses.filter((s) => s === 'rejected')).toHaveLength(structural);
      expect(statuses.filter((s) => s === 'completed')).toHaveLength(ROWS - structural);
      expect(stats.webhooksFailed).toBe(0);
    }, 240_000);
  },
);
