import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';

// One slow file: build, `npm pack`, install the tarball into an empty project, use it from outside.
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
let work: string;
let project: string;
let packedFiles: string[];

function run(file: string, args: string[], cwd: string): string {
  return execFileSync(file, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: cleanEnv(),
  });
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of Object.keys(env))
    if (name.startsWith('SVC_') || name.startsWith('VITEST')) delete env[name];
  return env;
}

beforeAll(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], ROOT)) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  const tarball = join(work, packed[0]!.filename);
  packedFiles = packed[0]!.files.map((f) => f.path);
  project = join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
  );
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the tarball from npm pack installs and works from an empty project', () => {
  it('ships the build and the bin, not the sources or tests', () => {
    expect(packedFiles).toContain('package.json');
    expect(packedFiles).toContain('bin/svc.js');
    expect(packedFiles).toContain('dist/index.js');
    expect(packedFiles).toContain('dist/index.cjs');
    expect(packedFiles).toContain('dist/server/index.js');
    expect(packedFiles).toContain('dist/cli/cli.js');
    expect(packedFiles).toContain('dist/openapi.json');
    for (const entry of ['http', 'express', 'fastify']) {
      expect(packedFiles).toContain(`dist/${entry}.js`);
      expect(packedFiles).toContain(`dist/${entry}.cjs`);
      expect(packedFiles).toContain(`dist/${entry}.d.ts`);
    }
    expect(packedFiles.filter((f) => /^(src|test|bench|scripts)\//.test(f))).toEqual([]);
  });

  it('declares no install-time script (npm 11 warns about each one to every installer)', () => {
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8'),
    ) as {
      scripts?: Record<string, string>;
    };
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'];
    expect(Object.keys(installed.scripts ?? {}).filter((name) => lifecycle.includes(name))).toEqual([]);
  });

  it("ESM: import { SvcClient, ApiError } from 'svc-sdk'", () => {
    const out = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { SvcClient, ApiError, NotFoundError, VERSION } from 'svc-sdk';
         const client = new SvcClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'ak_x' });
         await client.close();
         console.log(typeof SvcClient, new NotFoundError({ status: 404, method: 'GET', path: '/x' }) instanceof ApiError, VERSION);`,
      ],
      project,
    );
    expect(out.trim()).toBe(`function true ${pkg.version}`);
  });

  it("CJS: require('svc-sdk')", () => {
    const out = run(
      process.execPath,
      [
        '-e',
        `const { SvcClient, ApiError, createFetchTransport } = require('svc-sdk');
         console.log(typeof SvcClient, typeof ApiError, typeof createFetchTransport);`,
      ],
      project,
    );
    expect(out.trim()).toBe('function function function');
  });

  it("import { createReferenceServer } from 'svc-sdk/server' starts and stops a server", () => {
    const out = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createReferenceServer } from 'svc-sdk/server';
         import { SvcClient } from 'svc-sdk';
         const server = await createReferenceServer();
         const client = new SvcClient({ baseUrl: server.url, apiKey: 'ak_demo_project' });
         const outcome = await client.tax.validate({ countryCode: 'DE', rawValue: 'DE136695976' });
         const stats = await (await fetch(server.url + '/__admin/stats')).json();
         await client.close();
         await server.close();
         console.log(outcome.kind, stats.validationsProcessed);`,
      ],
      project,
    );
    expect(out.trim()).toBe('completed 1');
  });

  it("require('svc-sdk/server') works too", () => {
    const out = run(
      process.execPath,
      ['-e', `console.log(typeof require('svc-sdk/server').createReferenceServer);`],
      project,
    );
    expect(out.trim()).toBe('function');
  });

  it("'svc-sdk' and 'svc-sdk/http' load with neither express nor fastify installed (optional peers)", () => {
    expect(existsSync(join(project, 'node_modules', 'express'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'fastify'))).toBe(false);
    const out = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { SvcClient, verify } from 'svc-sdk';
         import { verifyRequest } from 'svc-sdk/http';
         import { createReferenceServer } from 'svc-sdk/server';
         const server = await createReferenceServer();
         const client = new SvcClient({ baseUrl: server.url, apiKey: 'ak_demo_project' });
         const { token } = server.admin.createVerification();
         const request = new Request('http://x/contact', { method: 'POST', body: new URLSearchParams({ 'svc-verification-token': token }) });
         const first = await verifyRequest(client, request);
         const again = await verify(client, token);
         await client.close();
         await server.close();
         console.log(first.status, again.decision, again.reasons[0].code);`,
      ],
      project,
    );
    expect(out.trim()).toBe('200 reject REPLAYED');
  });

  it("'svc-sdk/express' guards an Express app once express is installed (ESM and CJS)", () => {
    // The consumer's own express, linked from this checkout: no download.
    symlinkSync(join(ROOT, 'node_modules', 'express'), join(project, 'node_modules', 'express'), 'dir');
    const out = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import express from 'express';
         import { requireHuman } from 'svc-sdk/express';
         import { SvcClient } from 'svc-sdk';
         import { createReferenceServer } from 'svc-sdk/server';
         const server = await createReferenceServer();
         const client = new SvcClient({ baseUrl: server.url, apiKey: 'ak_demo_project' });
         const app = express();
         app.post('/contact', express.urlencoded({ extended: false }), requireHuman(client), (req, res) => res.json({ ok: req.botCheck.decision }));
         const listener = app.listen(0, '127.0.0.1');
         await new Promise((resolve) => listener.once('listening', resolve));
         const url = 'http://127.0.0.1:' + listener.address().port + '/contact';
         const post = (token) => fetch(url, { method: 'POST', body: new URLSearchParams({ 'svc-verification-token': token }) });
         const { token } = server.admin.createVerification();
         const statuses = [(await post(token)).status, (await post(token)).status, (await post('garbage')).status];
         listener.close();
         await client.close();
         await server.close();
         console.log(statuses.join(' '));`,
      ],
      project,
    );
    expect(out.trim()).toBe('200 403 403');
    const cjs = run(
      process.execPath,
      [
        '-e',
        `console.log(typeof require('svc-sdk/express').requireHuman, typeof require('svc-sdk/fastify').requireHuman);`,
      ],
      project,
    );
    expect(cjs.trim()).toBe('function function');
  });

  it('the svc bin runs --version', () => {
    expect(run(join(project, 'node_modules', '.bin', 'svc'), ['--version'], project).trim()).toBe(
      pkg.version,
    );
  });

  it('type declarations resolve under NodeNext for ESM and CJS consumers', () => {
    writeFileSync(
      join(project, 'esm.mts'),
      `import { SvcClient, ApiError, type SvcClientOptions } from 'svc-sdk';
import { createReferenceServer, type ReferenceServer } from 'svc-sdk/server';
import { requireHuman } from 'svc-sdk/express';
import { type BotCheckAnswer, verifyRequest } from 'svc-sdk/http';
const options: SvcClientOptions = { baseUrl: 'http://127.0.0.1:4010', maxRetries: 1 };
const client: SvcClient = new SvcClient(options);
const check = (e: unknown): number | undefined => (e instanceof ApiError ? e.status : undefined);
const started: Promise<ReferenceServer> = createReferenceServer();
const guard = requireHuman(client, { maxAgeMs: 60_000, onDecision: (e) => void e.reasons });
const answered: Promise<BotCheckAnswer> = verifyRequest(client, new Request('http://x/'));
// @ts-expect-error onReplay is reject or shareFirstAnswer
requireHuman(client, { onReplay: 'ignore' });
// @ts-expect-error maxRetries is a number: proves the types are real, not any
new SvcClient({ maxRetries: 'two' });
void client; void check; void started; void guard; void answered;
`,
    );
    writeFileSync(
      join(project, 'cjs.cts'),
      `import { SvcClient } from 'svc-sdk';
import { createReferenceServer } from 'svc-sdk/server';
const client: SvcClient = new SvcClient({ baseUrl: 'http://127.0.0.1:4010' });
// @ts-expect-error baseUrl is a string or URL
new SvcClient({ baseUrl: 42 });
void client; void createReferenceServer;
`,
    );
    // The consumer's express types, linked from this checkout (their dependencies resolve there).
    mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
    symlinkSync(
      join(ROOT, 'node_modules', '@types', 'express'),
      join(project, 'node_modules', '@types', 'express'),
      'dir',
    );
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2023',
      '--types',
      'node',
      '--typeRoots',
      join(ROOT, 'node_modules', '@types'),
      'esm.mts',
      'cjs.cts',
    ];
    let output = '';
    try {
      run(tsc, args, project);
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 120_000);

  it('svc-sdk/openapi.json resolves to the OpenAPI 3.1 document', () => {
    const out = run(
      process.execPath,
      [
        '-e',
        `const doc = require('svc-sdk/openapi.json'); console.log(doc.openapi, Object.keys(doc.paths).length);`,
      ],
      project,
    );
    expect(out.trim()).toBe('3.1.0 8');
  });

  it("a user's own vitest suite uses svc-sdk/server as a test double (examples/test-double)", () => {
    const dir = join(project, 'test');
    mkdirSync(dir, { recursive: true });
    for (const name of ['checkout.ts', 'checkout.test.ts']) {
      const source = readFileSync(join(ROOT, 'examples', 'test-double', name), 'utf8')
        .replaceAll("'../../src/index.js'", "'svc-sdk'")
        .replaceAll("'../../src/server/index.js'", "'svc-sdk/server'");
      expect(source).not.toContain('/src/');
      writeFileSync(join(dir, name), source);
    }
    // The consumer brings its own vitest; here it is linked from this checkout.
    symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
    writeFileSync(
      join(project, 'vitest.config.mjs'),
      'export default { test: { include: ["test/**/*.test.ts"] } };\n',
    );
    const out = run(
      process.execPath,
      [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', project],
      project,
    );
    expect(out).toMatch(/Tests\s+\d+ passed/);
  });
});
