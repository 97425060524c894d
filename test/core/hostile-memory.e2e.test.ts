import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build.js';
import { BIN, collectOutput, ensureBuilt } from '../helpers/built-cli.js';
import { bomb, endless, pump } from './hostile-servers.js';
import { type LocalServer, startServer } from './local-servers.js';

// Peak memory of a process that talks to a server sending gigabytes: the library must stop
// reading at its byte cap (after decompression), so the peak stays far below what was offered.
const RSS_LIMIT_MB = 400;
const KEY = 'ak_memory_test_0123456789';
const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

let dir: string;
let server: LocalServer;
/** Bytes the server wrote for the last request. */
let sent = { bytes: 0 };
/** What the server answers: set by each test. */
let answer: (res: ServerResponse) => void = () => {};

/** Streams a body that never ends (chunked, no Content-Length), made lazily as the client reads. */
function neverEnding(res: ServerResponse, head: string, filler: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  pump(res, endless(head, filler.repeat(Math.ceil(65_536 / filler.length))), sent);
}

/** Peak RSS per case, printed at the end for the report. */
const peaks: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'svc-memory-'));
  server = await startServer((_req, res) => {
    sent = { bytes: 0 };
    answer(res);
  });
  // Reports the peak RSS of the process it is preloaded into, in MB, to the file named by SVC_PEAK_FILE.
  writeFileSync(
    join(dir, 'peak.cjs'),
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.SVC_PEAK_FILE, String(process.resourceUsage().maxRSS / 1024)));\n",
  );
  // One library call against the server, through the built package; prints the error it ends with.
  writeFileSync(
    join(dir, 'call.mjs'),
    `import { SvcClient } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)};
const [baseUrl, what, transport] = process.argv.slice(2);
const client = new SvcClient({ baseUrl, apiKey: ${JSON.stringify(KEY)}, maxRetries: 0, timeoutMs: 60000, ...(transport === 'fetch' && { fetch: globalThis.fetch }) });
try {
  if (what === 'audit') await client.audit.listEvents({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' });
  else await client.botCheck.getResult(${JSON.stringify(ID)});
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  console.log(JSON.stringify({ name: error.name, message: error.message }));
} finally {
  await client.close();
}
`,
  );
}, 180_000);

afterAll(async () => {
  if (peaks.length > 0) console.log(`peak RSS: ${peaks.join('; ')}`);
  await server?.close();
});

/** Runs node with the peak reporter; resolves with its output, exit code and peak RSS in MB. */
function runNode(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string; peakMb: number }> {
  const peakFile = join(dir, `peak-${Math.random().toString(36).slice(2)}`);
  const child = spawn(process.execPath, ['--require', join(dir, 'peak.cjs'), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1', SVC_PEAK_FILE: peakFile, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  return new Promise((resolve) => {
    child.on('close', (code) =>
      resolve({ code, ...output(), peakMb: Number(readFileSync(peakFile, 'utf8')) }),
    );
  });
}

async function libraryCall(what: 'audit' | 'botcheck', transport: 'undici' | 'fetch') {
  const run = await runNode([join(dir, 'call.mjs'), server.url, what, transport]);
  peaks.push(
    `${what}/${transport} ${run.peakMb.toFixed(0)} MB (server sent ${(sent.bytes / 1e6).toFixed(1)} MB)`,
  );
  return {
    ...run,
    outcome: JSON.parse(run.stdout.trim()) as { name?: string; message?: string; ok?: boolean },
  };
}

describe('peak RSS stays under 400 MB whatever the server sends (child process, built library)', () => {
  it('an audit page that never ends stops at the 32 MiB page cap', async () => {
    answer = (res) => neverEnding(res, '{"content":[', '{"id":"e","type":"x"},');
    const { outcome, peakMb } = await libraryCall('audit', 'undici');
    expect(outcome.name).toBe('ResponseTooLargeError');
    expect(outcome.message).toBe(
      'Response to GET /platform/v1/events is larger than the limit of 33554432 bytes (status 200); stopped reading',
    );
    expect(peakMb).toBeLessThan(RSS_LIMIT_MB);
  }, 60_000);

  it('an endless bot-check result stops at 64 KiB', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      pump(res, endless('{"verificationId":"', 'x'.repeat(65_536)), sent);
    };
    const { outcome, peakMb } = await libraryCall('botcheck', 'undici');
    expect(outcome.name).toBe('ResponseTooLargeError');
    expect(sent.bytes).toBeLessThan(64 * 1024 * 1024);
    expect(peakMb).toBeLessThan(RSS_LIMIT_MB);
  }, 60_000);

  it.each(['gzip', 'br'] as const)(
    'a %s bomb through fetch stops at the cap after decompression',
    async (encoding) => {
      answer = (res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        pump(res, bomb(encoding, '{"content":['), sent);
      };
      const { outcome, peakMb } = await libraryCall('audit', 'fetch');
      expect(outcome.name).toBe('ResponseTooLargeError');
      expect(outcome.message).toMatch(/limit of 33554432 bytes/);
      expect(peakMb).toBeLessThan(RSS_LIMIT_MB);
    },
    60_000,
  );

  it('svc audit export against a page that never ends exits 1 with one line, peak RSS bounded', async () => {
    answer = (res) => neverEnding(res, '{"content":[', '{"id":"e","type":"x"},');
    const out = join(dir, 'export.ndjson');
    const run = await runNode(
      [
        BIN,
        'audit',
        'export',
        '--out',
        out,
        '--from',
        '2026-01-01T00:00:00Z',
        '--to',
        '2026-01-02T00:00:00Z',
      ],
      { SVC_BASE_URL: server.url, SVC_API_KEY: KEY },
    );
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/larger than the limit of 33554432 bytes/);
    expect(run.stderr).not.toContain(KEY);
    peaks.push(
      `svc audit export ${run.peakMb.toFixed(0)} MB (server sent ${(sent.bytes / 1e6).toFixed(1)} MB)`,
    );
    expect(run.peakMb).toBeLessThan(RSS_LIMIT_MB);
  }, 60_000);

  it('a Content-Length above the cap fails before any of the 2 GB is read', async () => {
    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 ** 3) });
      pump(res, endless('{"content":[', '{"id":"e"},'.repeat(6000)), sent);
    };
    const { outcome, peakMb } = await libraryCall('audit', 'undici');
    expect(outcome.name).toBe('ResponseTooLargeError');
    expect(peakMb).toBeLessThan(RSS_LIMIT_MB);
  }, 60_000);
});
