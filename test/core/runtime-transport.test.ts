import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SvcClient } from '../../src/client.js';
import { SvcError } from '../../src/core/errors/error-classes.js';
import { currentRuntime } from '../../src/core/runtime.js';
import { nodeBuiltin } from '../../src/node/fs/builtin.js';
import { createDefaultTransport } from '../../src/node/transport/default.js';
import { listenForWebhooks } from '../../src/node/webhooks/listen.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { importGraph } from '../helpers/import-graph.js';
import { useReferenceServer } from '../helpers/server.js';

const run = promisify(execFile);
const server = useReferenceServer();

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A GET through `transport` to the reference server's health-free 404 path. */
async function send(transport: ReturnType<typeof createDefaultTransport>): Promise<number> {
  const res = await transport.request({
    method: 'GET',
    url: `${server().url}/no-such-path`,
    headers: {},
    signal: new AbortController().signal,
  });
  await transport.close?.();
  return res.status;
}

describe('the default transport fits the runtime: undici on Node, the global fetch elsewhere', () => {
  it('this test process is detected as Node', () => {
    expect(currentRuntime()).toEqual({ name: 'node', version: process.versions.node });
  });

  it.each(['bun', 'deno', 'workerd', 'edge-runtime', 'browser', 'unknown'] as const)(
    'on %s every request goes through the global fetch',
    async (runtime) => {
      const seen: string[] = [];
      const real = globalThis.fetch;
      vi.stubGlobal('fetch', (input: string, init: RequestInit) => {
        seen.push(input);
        return real(input, init);
      });
      expect(await send(createDefaultTransport({}, runtime))).toBe(404);
      expect(seen).toEqual([`${server().url}/no-such-path`]);
    },
  );

  it('on Node the global fetch is never called (undici sends)', async () => {
    const seen: string[] = [];
    vi.stubGlobal('fetch', (input: string) => {
      seen.push(input);
      throw new Error('fetch must not be used on Node');
    });
    expect(await send(createDefaultTransport({}, 'node'))).toBe(404);
    expect(seen).toEqual([]);
  });

  it('a runtime without fetch is a configuration error at construction, naming the runtime', () => {
    vi.stubGlobal('fetch', undefined);
    expect(() => createDefaultTransport({}, 'workerd')).toThrow(
      expect.objectContaining({ code: 'config', message: expect.stringContaining('(workerd)') }),
    );
  });
});

const RUNTIMES = [
  ['Deno with --allow-net only', 'deno', ['run', '--allow-net=127.0.0.1']],
  ['Bun', 'bun', []],
] as const;

describe('Deno (--allow-net only) and Bun: the root client verifies and close() does not throw', () => {
  it.each(RUNTIMES)(
    '%s',
    async (_name, binary, args) => {
      const bin = join(ROOT, 'node_modules', '.bin', binary);
      if (!existsSync(bin)) {
        console.log(`skipped: ${bin} is not installed`);
        return;
      }
      ensureBuilt();
      const { token } = server().admin.createVerification();
      const probe = join(ROOT, 'test', 'core', 'fixtures', 'root-verify-probe.mjs');
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1' };
      const { stdout } = await run(bin, [...args, probe, server().url, token], {
        cwd: ROOT,
        env,
        timeout: 90_000,
      });
      const answer = JSON.parse(stdout.trim().split('\n').at(-1) as string);
      expect(answer).toMatchObject({ first: 'accept', second: ['REPLAYED'], closed: 'ok' });
      expect(answer.userAgent).toMatch(new RegExp(`^svc-sdk/\\S+ ${binary}/\\d`));
    },
    120_000,
  );
});

describe('the root entry loads no Node built-in at module top level', () => {
  it.each(['dist/index.js', 'dist/index.cjs'])('%s loads no package when imported', (file) => {
    ensureBuilt();
    const { packages } = importGraph(join(ROOT, file), { staticOnly: true });
    // zod is bundled into the library's chunks; every other package loads on first use.
    expect(packages.filter((p) => !p.endsWith('(dynamic)'))).toEqual([]);
  });
});

describe('a Node-only feature where the runtime lacks it throws one clear error naming runtime and feature', () => {
  it('listenForWebhooks without node:http', async () => {
    vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    const error = await listenForWebhooks({ onEvent: () => {} } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: 'unsupported_runtime' });
    expect((error as Error).message).toMatch(
      /^listenForWebhooks needs Node's node:http, which this runtime \(node\)/,
    );
  });

  it('nodeBuiltin returns the module where the runtime has it', () => {
    expect(typeof nodeBuiltin('node:crypto', 'test').hash).toBe('function');
  });
});

describe('SvcClient builds its sub-clients on first use', () => {
  it('the same sub-client each time, and a bot-check-only client never builds tax or audit', () => {
    const client = new SvcClient({ baseUrl: server().url, apiKey: 'ak_demo_project' });
    expect(client.botCheck).toBe(client.botCheck);
    expect(client.tax).toBe(client.tax);
    expect(client.audit).toBe(client.audit);
    const fresh = new SvcClient({ baseUrl: server().url });
    void fresh.botCheck;
    const text = Object.getOwnPropertyNames(fresh).join(' ');
    expect(text).not.toMatch(/tax|audit/);
  });
});
