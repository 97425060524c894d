import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BotCheckClient,
  type FetchLike,
  LegacyBotCheckClient,
  LocalValidationError,
  SvcError,
  verify,
  verifyRequest,
} from '../../src/botcheck/index.js';
import { DEMO } from '../../src/server/fixtures.js';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { importGraph } from '../helpers/import-graph.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A standalone current-API client on the reference server, counting the fetches it makes. */
function standalone(apiKey: string = DEMO.projectKey): { client: BotCheckClient; calls: string[] } {
  const calls: string[] = [];
  const counting: FetchLike = (input, init) => {
    calls.push(input);
    return fetch(input, init);
  };
  return { client: new BotCheckClient({ baseUrl: server().url, apiKey, fetch: counting }), calls };
}

describe('svc-sdk/botcheck: BotCheckClient stands alone from { baseUrl, apiKey, timeoutMs, fetch? }', () => {
  it('verifies a token with the fetch passed in, and rejects its replay without a request', async () => {
    const { token, verificationId } = server().admin.createVerification({ score: 0.1 });
    const { client, calls } = standalone();
    expect(await client.verify(token)).toMatchObject({ decision: 'accept', verificationId, replayed: false });
    const again = await client.verify(token);
    expect(again.reasons.map((r) => r.code)).toEqual(['REPLAYED']);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toBe(`${server().url}/captcha/v2/verifications/${verificationId}/results`);
  });

  it('sends with the global fetch when none is given, looked up at each call', async () => {
    const { token } = server().admin.createVerification();
    const client = new BotCheckClient({ baseUrl: server().url, apiKey: DEMO.projectKey, timeoutMs: 2000 });
    const seen: string[] = [];
    const real = globalThis.fetch;
    vi.stubGlobal('fetch', (input: string, init: RequestInit) => {
      seen.push(input);
      return real(input, init);
    });
    expect((await client.verify(token)).decision).toBe('accept');
    expect(seen).toHaveLength(1);
  });

  it('LegacyBotCheckClient stands alone the same way', async () => {
    const { token } = server().admin.createVerification();
    const legacy = new LegacyBotCheckClient({ baseUrl: server().url, apiKey: DEMO.projectKey });
    expect((await legacy.verify(token)).decision).toBe('accept');
    expect((await legacy.verify(token)).reasons[0]?.code).toBe('REPLAYED');
  });

  it('a wrong key is a reject whose reasons never carry the key', async () => {
    const { token } = server().admin.createVerification();
    const key = `ak_${'q'.repeat(49)}`;
    const outcome = await standalone(key).client.verify(token);
    expect(outcome.decision).toBe('reject');
    expect(JSON.stringify(outcome.reasons)).not.toContain(key);
    expect(String((outcome.error as Error).message)).not.toContain(key);
  });

  it('a bad baseUrl or timeoutMs is refused at construction', () => {
    expect(() => new BotCheckClient({ baseUrl: 'ftp://x' })).toThrow(/http or https/);
    expect(() => new BotCheckClient({ baseUrl: 'https://user:pw@x' })).toThrow(/credentials/);
    expect(() => new BotCheckClient({ baseUrl: undefined as unknown as string })).toThrow(
      /baseUrl is required/,
    );
    expect(() => new BotCheckClient({ baseUrl: server().url, timeoutMs: -1 })).toThrow(LocalValidationError);
  });

  it('a runtime without fetch is a configuration error naming the runtime, at construction', () => {
    vi.stubGlobal('fetch', undefined);
    const error = (() => {
      try {
        new BotCheckClient({ baseUrl: server().url });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: 'config', message: expect.stringMatching(/\(node\).*fetch option/) });
  });
});

describe('svc-sdk/botcheck: verify and verifyRequest take a standalone client', () => {
  it('verify(client, token) asks the client its own API', async () => {
    const { token } = server().admin.createVerification();
    expect((await verify(standalone().client, token)).decision).toBe('accept');
  });

  it('verify with an api the client does not ask throws LocalValidationError and sends nothing', async () => {
    const { token } = server().admin.createVerification();
    const { client, calls } = standalone();
    await expect(verify(client, token, { api: 'legacy' })).rejects.toBeInstanceOf(LocalValidationError);
    const legacy = new LegacyBotCheckClient({ baseUrl: server().url, apiKey: DEMO.projectKey });
    await expect(verify(legacy, token, { api: 'current' })).rejects.toBeInstanceOf(LocalValidationError);
    expect(calls).toHaveLength(0);
  });

  it('verifyRequest(client, request) verifies a Web Request form post', async () => {
    const { token } = server().admin.createVerification();
    const request = new Request('https://shop.example/submit', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'svc-verification-token': token, name: 'Ada' }).toString(),
    });
    const { client } = standalone();
    const answer = await verifyRequest(client, request);
    expect(answer).toMatchObject({ decision: 'accept', status: 200 });
    const replay = await verifyRequest(
      client,
      new Request('https://shop.example/submit', {
        method: 'POST',
        headers: { 'svc-verification-token': token },
      }),
    );
    expect(replay).toMatchObject({ decision: 'reject', status: 403 });
  });
});

describe('svc-sdk/botcheck loads no Node built-in, no undici, no CSV, tax or audit code', () => {
  // zod/mini is bundled into the entry's chunks (one file less to resolve per zod module at import).
  it.each(['dist/botcheck.js', 'dist/botcheck.cjs'])('%s imports no package at all', (file) => {
    ensureBuilt();
    const graph = importGraph(join(ROOT, file));
    expect(graph.packages).toEqual([]);
    const code = graph.files.map((f) => f.replace(ROOT, '')).join(' ');
    expect(code).not.toMatch(/tax|audit|batch|csv|undici|node-http/i);
  });
});

describe('svc-sdk/botcheck types compile with lib ["es2022", "dom"] and no @types/node', () => {
  it('a Workers-style consumer type-checks (skipLibCheck off)', () => {
    ensureBuilt();
    const project = mkdtempSync(join(tmpdir(), 'svc-botcheck-types-'));
    try {
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(ROOT, join(project, 'node_modules', 'svc-sdk'), 'dir');
      writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            lib: ['es2022', 'dom'],
            types: [],
            module: 'nodenext',
            moduleResolution: 'nodenext',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
          },
          files: ['worker.ts'],
        }),
      );
      writeFileSync(
        join(project, 'worker.ts'),
        [
          "import { BotCheckClient, extractToken, verify, verifyRequest } from 'svc-sdk/botcheck';",
          "const client = new BotCheckClient({ baseUrl: 'https://api.example', apiKey: 'ak_x', timeoutMs: 3000, fetch });",
          'export async function handle(request: Request): Promise<Response> {',
          '  const check = await verifyRequest(client, request);',
          "  const again = await verify(client, extractToken('svc-verification-token=x'));",
          '  return Response.json({ check: check.decision, again: again.decision }, { status: check.status });',
          '}',
        ].join('\n'),
      );
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const run = () =>
        execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8', stdio: 'pipe' });
      expect(run).not.toThrow();
      // The check can fail: the same consumer using a Node-only name does not compile.
      writeFileSync(join(project, 'worker.ts'), "export const b: Buffer = Buffer.from('x');\n");
      expect(run).toThrow();
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 180_000);
});
