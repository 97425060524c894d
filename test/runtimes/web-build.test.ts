import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { importGraph } from '../helpers/import-graph.js';

// The root entry's build for Workers, edge runtimes and browsers (dist/web, package.json
// conditions workerd, worker, edge-light, browser). That it passes the verify conformance checks
// in workerd is test/runtimes/conformance.test.ts; here, which build each target gets and what the
// web build leaves out.

let app = '';
beforeAll(() => {
  ensureBuilt();
  // An app folder that has the package as a dependency (a link to the project).
  app = mkdtempSync(join(tmpdir(), 'svc-web-build-'));
  mkdirSync(join(app, 'node_modules'));
  symlinkSync(ROOT, join(app, 'node_modules', 'svc-sdk'), 'dir');
  writeFileSync(join(app, 'app.mjs'), "import { SvcClient } from 'svc-sdk';\nexport { SvcClient };\n");
}, 600_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** Bundles the app as a bundler would for a target; returns the project files it took and what it left external. */
async function bundleFor(options: { platform: 'node' | 'neutral' | 'browser'; conditions?: string[] }) {
  const result = await build({
    entryPoints: [join(app, 'app.mjs')],
    bundle: true,
    write: false,
    format: 'esm',
    metafile: true,
    logLevel: 'silent',
    mainFields: ['module', 'main'],
    ...options,
    // Node's built-ins are left for the runtime, as every Node-aware bundler does.
    external: options.platform === 'node' ? [] : ['node:*'],
  });
  const inputs = Object.keys(result.metafile.inputs);
  const externals = Object.values(result.metafile.inputs).flatMap((input) =>
    input.imports.filter((i) => i.external).map((i) => i.path),
  );
  return {
    entry: inputs.find((f) => /dist\/(web\/)?index\.js$/.test(f)),
    packages: [...new Set(inputs.filter((f) => f.includes('node_modules/')).map(packageOf))].sort(),
    externals: [...new Set(externals)].sort(),
  };
}

/** The package a bundled node_modules file belongs to. */
function packageOf(file: string): string {
  const parts = relative(ROOT, file).split('node_modules/').at(-1)?.split('/') ?? [];
  return (parts[0]?.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

describe('the root entry for Workers, edge runtimes and browsers leaves Node-only machinery out', () => {
  it.each([
    ['wrangler 3 (workerd, worker, browser)', ['workerd', 'worker', 'browser']],
    ['Next.js / Vercel edge (edge-light, worker, browser)', ['edge-light', 'worker', 'browser']],
    ['a browser bundle', ['browser']],
  ])(
    '%s gets dist/web and bundles only zod: no Node built-in, undici, CSV or iconv',
    async (_, conditions) => {
      const bundled = await bundleFor({ platform: 'neutral', conditions });
      expect(bundled.entry).toMatch(/dist\/web\/index\.js$/);
      expect(bundled.packages).toEqual(['zod']);
      expect(bundled.externals).toEqual([]);
    },
    120_000,
  );

  it('the web build names only zod and compiles no module of the Node wing (src/node)', () => {
    const all = importGraph(join(ROOT, 'dist', 'web', 'index.js'));
    // zod/v4/locales/en.js: the English messages the wire schemas set on first use; zod/v4/core:
    // what the bot-check schemas take from zod's core (issue 42, src/botcheck/schemas.ts).
    expect(all.packages.filter((p) => !/^zod(\/mini|\/v4\/core|\/v4\/locales\/en\.js)?$/.test(p))).toEqual(
      [],
    );
    // esbuild names each source module it compiles into a chunk: `// src/<path>`.
    const wing = all.files.flatMap((f) => readFileSync(f, 'utf8').match(/^\/\/ src\/node\/\S+/gm) ?? []);
    expect(wing).toEqual([]);
  });
});

describe('Node and bundlers targeting Node still get the full build, with undici', () => {
  it('esbuild for Node picks dist/index.js, with undici; the batch-file packages are svc-sdk/node alone', async () => {
    const bundled = await bundleFor({ platform: 'node' });
    expect(bundled.entry).toMatch(/dist\/index\.js$/);
    // zod is compiled into dist/*.js itself (one file to load instead of ~40), so it is no package here.
    expect(bundled.packages).toEqual(['undici']);
  }, 120_000);

  it("Node's own resolution picks dist/index.js (import) and dist/index.cjs (require)", async () => {
    const { createRequire } = await import('node:module');
    const require = createRequire(join(app, 'app.mjs'));
    expect(require.resolve('svc-sdk')).toBe(join(ROOT, 'dist', 'index.cjs'));
    const resolved = import.meta.resolve('svc-sdk', `file://${join(app, 'app.mjs')}`);
    expect(resolved).toBe(`file://${join(ROOT, 'dist', 'index.js')}`);
  });
});

describe('the Node jobs are svc-sdk/node alone; the web build of the root has no Node job and no Node transport', () => {
  it('no batch-file, export, sync or archive function, and no client method reaching one', async () => {
    const web = await import(join(ROOT, 'dist', 'web', 'index.js'));
    const jobs = [
      'runBatchFile',
      'exportAuditEvents',
      'syncAuditArchive',
      'verifyAuditArchive',
      'copyAuditArchive',
    ];
    expect(jobs.filter((name) => name in web)).toEqual([]);
    const client = new web.SvcClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'ak_demo_project' });
    expect(['runBatchFile', 'watchCompletions'].filter((m) => m in client.tax)).toEqual([]);
    expect(['exportEvents', 'sync'].filter((m) => m in client.audit)).toEqual([]);
  });

  it('its client on Node uses fetch, so a proxy or ca option is refused in one line, not ignored', async () => {
    const web = await import(join(ROOT, 'dist', 'web', 'index.js'));
    const make = () =>
      new web.SvcClient({
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'ak_demo_project',
        proxy: 'http://127.0.0.1:9',
      });
    expect(make).toThrow(web.SvcError);
    expect(make).toThrow(/the proxy option need Node's HTTP client/);
  });
});

/**
 * The Worker the bundle-size bench measures (bench/workers/botcheck-worker.js: `BotCheckClient` and
 * `verifyRequest` only), bundled as wrangler does (bench/scenarios/bundle-size.js): its code.
 */
async function workerBundle(): Promise<string> {
  const result = await build({
    entryPoints: [join(ROOT, 'bench', 'workers', 'botcheck-worker.js')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    nodePaths: [join(app, 'node_modules')],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

describe('a Worker that verifies through svc-sdk/botcheck bundles only what that path reaches', () => {
  let code = '';
  beforeAll(async () => {
    code = await workerBundle();
  }, 120_000);

  it('it verifies: the current API path, its schema and the verify rules are in', () => {
    expect(code).toContain('/captcha/v2/verifications/');
    expect(code).toContain('resultExpiresAt');
    expect(code).toContain('REPLAYED');
  });

  it('no legacy client, legacy schema or legacy route', () => {
    expect(code).not.toContain('/assessments');
    expect(code).not.toContain('retrievalTimestamp');
    expect(code).not.toContain('LegacyBotCheckClient');
  });

  it('no dev-server tables: dummy tokens, outcome descriptions, test ids', () => {
    expect(code).not.toContain('eyJ2ZXJpZmljYXRpb25JZCI6');
    expect(code).not.toContain('until finished from the admin API');
    expect(code).not.toContain('000000000007');
  });

  it('no error class the bot check never throws', () => {
    expect(code).not.toContain('OutputPathError');
    expect(code).not.toContain('PagingError');
  });

  it('no wire-schema descriptions (they are for the OpenAPI document)', () => {
    expect(code).not.toContain('the field most integrations act on');
  });
});
