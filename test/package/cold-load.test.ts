import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { importGraph } from '../helpers/import-graph.js';

// Cold start (issue 23): each package file an entry loads at import is resolved, read and compiled
// before the first call, and zod's and undici's files were most of that time. The built graph of
// every entry is walked from its file through its static imports only (what `import` loads).

/**
 * Bundled modules leave esbuild's `// node_modules/<name>/...` comment in the chunk (with a path
 * before it where node_modules is a link, as in a git worktree).
 */
const bundledFrom = (files: string[], name: string) =>
  files.filter((f) => new RegExp(`^// (?:\\S*/)?node_modules/${name}/`, 'm').test(readFileSync(f, 'utf8')));

/**
 * Runs `script` as an ES module in a new Node process (`process.argv[1]` is `file`, when given),
 * checks it wrote nothing to stderr (no error, no warning) and returns the JSON of its stdout.
 */
function probe(script: string, file?: string): unknown {
  const args = ['--input-type=module', '-e', script, ...(file === undefined ? [] : [join(ROOT, file)])];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

const LIBRARY_ENTRIES = [
  'index',
  'botcheck',
  'http',
  'push',
  'express',
  'fastify',
  'testing',
  'node',
].flatMap((e) => [`dist/${e}.js`, `dist/${e}.cjs`]);

describe('importing an entry loads no package file of zod or undici (zod is bundled, undici loads at the first request)', () => {
  it.each(LIBRARY_ENTRIES)('%s', (file) => {
    ensureBuilt();
    const { files, packages } = importGraph(join(ROOT, file), { staticOnly: true });
    const atImport = packages.filter((p) => !p.endsWith('(dynamic)'));
    expect(atImport.filter((p) => /^(zod|undici)(\/|$)/.test(p))).toEqual([]);
    expect(bundledFrom(files, 'undici')).toEqual([]);
  });

  it('(control) the walk does see undici behind the root transport, as a dynamic import', () => {
    ensureBuilt();
    expect(importGraph(join(ROOT, 'dist/index.js'), { staticOnly: true }).packages).toContain(
      'undici (dynamic)',
    );
  });
});

// Each class exists once across the entries (the shared chunks of the build): an error thrown by
// the root's client is an instance of the class `svc-sdk/botcheck` exports.
describe('every entry shares the classes of the bot check', () => {
  it.each([
    ['ESM', "const load = (e) => import(new URL('../dist/' + e + '.js', base).href);"],
    [
      'CommonJS',
      "const req = (await import('node:module')).createRequire(base); const load = async (e) => req('../dist/' + e + '.cjs');",
    ],
  ])(
    '%s: one class each across svc-sdk, svc-sdk/botcheck and svc-sdk/http, errors of client.botCheck included',
    (_, load) => {
      ensureBuilt();
      const script = `
      const base = ${JSON.stringify(`file://${join(ROOT, 'test/')}`)};
      ${load}
      const [root, bot, http] = await Promise.all(['index', 'botcheck', 'http'].map(load));
      const client = new root.SvcClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'ak_x', maxRetries: 0 });
      const outcome = await bot.verify(client, 'not a token').catch((e) => e);
      console.log(JSON.stringify({
        classes: root.SvcError === bot.SvcError && root.ApiError === bot.ApiError && root.verify === bot.verify,
        verifyRequest: http.verifyRequest === bot.verifyRequest,
        botCheck: client.botCheck instanceof bot.BotCheckClient,
        outcome: outcome instanceof bot.SvcError ? 'error' : outcome.decision,
      }));`;
      expect(probe(script)).toEqual({
        classes: true,
        verifyRequest: true,
        botCheck: true,
        outcome: 'reject',
      });
    },
  );
});

// Schemas are built on first use (core/lazy-schema.ts): building the tax, audit and problem schemas
// at import was most of the root's cold import. Each `.meta()` adds the schema to zod's global
// registry, which zod keeps on `globalThis`: a child process puts a counting registry there first.
const COUNT_SCHEMAS = `
  let added = 0;
  const map = new WeakMap();
  globalThis.__zod_globalRegistry = {
    _map: map, _idmap: new Map(),
    add(schema, meta) { added++; map.set(schema, meta); return this; },
    get(schema) { return map.get(schema); },
    has(schema) { return map.has(schema); },
    remove(schema) { map.delete(schema); return this; },
    clear() { return this; },
  };
  const { createRequire } = await import('node:module');
  const m = process.argv[1].endsWith('.cjs') ? createRequire(process.argv[1])(process.argv[1]) : await import(process.argv[1]);
  const atImport = added;
  m.parseWebhookEvent({ eventType: 'taxvalidation.validation.manual-review-required',
    occurredAt: '2026-01-01T00:00:00Z', validationRequestId: 'r', status: 'PENDING' });
  console.log(JSON.stringify({ atImport, afterParse: added }));
`;

describe('importing the root entry builds no schema (schemas are built on first use)', () => {
  it.each(['dist/index.js', 'dist/index.cjs'])('%s', (file) => {
    ensureBuilt();
    const counts = probe(COUNT_SCHEMAS, file) as { atImport: number; afterParse: number };
    expect(counts.atImport).toBe(0);
    // (control) the first parse builds the webhook schema and registers its descriptions.
    expect(counts.afterParse).toBeGreaterThan(0);
  });
});

/** Files of `files` that carry the compiled source module `source` (esbuild's `// src/...` comment). */
const carrying = (files: string[], source: string) =>
  files.filter((f) => readFileSync(f, 'utf8').includes(`// ${source}\n`));

describe('the root entry reaches no Node job; svc-sdk/node loads each job at its call', () => {
  // The jobs' code: the webhook listener's server (node:http, host guard, connection bounds), the
  // exporter's page scanner and prefetcher, the batch-file job's CSV reader.
  const JOBS = [
    'src/node/webhooks/server.ts',
    'src/node/audit-export/pages.ts',
    'src/node/audit-export/raw-page.ts',
    'src/node/audit-export/page-prefetch.ts',
    'src/node/batch-file/input/csv.ts',
  ];
  it.each(['dist/index.js', 'dist/index.cjs'])(
    '%s reaches none of them, not even through import()',
    (file) => {
      ensureBuilt();
      const all = importGraph(join(ROOT, file)).files;
      for (const source of JOBS) expect(carrying(all, source)).toEqual([]);
    },
  );

  it.each(['dist/node.js', 'dist/node.cjs'])('%s loads them only when called', (file) => {
    ensureBuilt();
    const { files } = importGraph(join(ROOT, file), { staticOnly: true });
    for (const source of JOBS) expect(carrying(files, source)).toEqual([]);
    // (control) the walk through dynamic imports does find each.
    const all = importGraph(join(ROOT, file)).files;
    for (const source of JOBS) expect(carrying(all, source).length).toBeGreaterThan(0);
  });
});

// The wire schemas are zod/mini (core/schema.ts): classic zod's methods reach nearly all of zod.
describe('importing the root entry loads no classic zod, and buildOpenApiDocument returns the document the build wrote', () => {
  it.each(['dist/index.js', 'dist/index.cjs'])('%s', (file) => {
    ensureBuilt();
    const { files } = importGraph(join(ROOT, file), { staticOnly: true });
    expect(bundledFrom(files, 'zod/v4/classic')).toEqual([]);
    // (control) the walk sees the zod the root does load.
    expect(bundledFrom(files, 'zod/v4/mini').length).toBeGreaterThan(0);
  });

  it.each([
    ['dist/index.js', 'const m = await import(process.argv[1]);'],
    [
      'dist/index.cjs',
      "const m = (await import('node:module')).createRequire(process.argv[1])(process.argv[1]);",
    ],
  ])('buildOpenApiDocument of %s returns the document the build wrote', (file, load) => {
    ensureBuilt();
    expect(probe(`${load} console.log(JSON.stringify(m.buildOpenApiDocument()));`, file)).toEqual(
      JSON.parse(readFileSync(join(ROOT, 'dist/openapi.json'), 'utf8')),
    );
  });
});

// Issue 42: esbuild puts a bundled file in the chunk of every entry that reaches it through any
// import, used or not. A name zod/mini's index re-exports itself (`z.globalRegistry`,
// `z.ZodMiniISODateTime`, `z.iso`, `z.config`) reaches that index, which also re-exports the JSON
// Schema generator, so the bot-check entry loaded the generator the root's buildOpenApiDocument uses.
describe('importing svc-sdk/botcheck loads no JSON Schema generator (only buildOpenApiDocument uses it)', () => {
  const generator = (files: string[]) =>
    files.filter((f) =>
      /^\/\/ (?:\S*\/)?node_modules\/zod\/v4\/core\/(?:to-json-schema|json-schema-processors)\.js$/m.test(
        readFileSync(f, 'utf8'),
      ),
    );
  it.each(['dist/botcheck.js', 'dist/botcheck.cjs'])('%s', (file) => {
    ensureBuilt();
    expect(generator(importGraph(join(ROOT, file), { staticOnly: true }).files)).toEqual([]);
    // (control) the root entry does load it.
    const root = file.replace('botcheck', 'index');
    expect(generator(importGraph(join(ROOT, root), { staticOnly: true }).files).length).toBeGreaterThan(0);
  });
});

describe('starting the CLI loads neither zod nor undici, bundled or not', () => {
  it('dist/cli/cli.js', () => {
    ensureBuilt();
    const { files, packages } = importGraph(join(ROOT, 'dist/cli/cli.js'), { staticOnly: true });
    const atImport = packages.filter((p) => !p.endsWith('(dynamic)'));
    expect(atImport.filter((p) => /^(zod|undici|conf|ora|csv-|exceljs|iconv)/.test(p))).toEqual([]);
    expect(bundledFrom(files, 'zod')).toEqual([]);
    expect(bundledFrom(files, 'undici')).toEqual([]);
  });
});

describe('bundlers building for Workers, edge routes and browsers get dist/web, which imports zod instead of carrying it', () => {
  /** Where esbuild resolves `specifier` from a project that has svc-sdk installed, under `conditions`. */
  async function resolveAs(specifier: string, conditions: string[]): Promise<string> {
    const { build } = await import('esbuild');
    const project = mkdtempSync(join(tmpdir(), 'svc-web-conditions-'));
    try {
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(ROOT, join(project, 'node_modules', 'svc-sdk'), 'dir');
      let resolved = '';
      await build({
        stdin: { contents: '', resolveDir: project },
        write: false,
        platform: 'neutral',
        conditions,
        logLevel: 'silent',
        plugins: [
          {
            name: 'resolve-probe',
            setup(probe) {
              probe.onStart(async () => {
                const result = await probe.resolve(specifier, {
                  kind: 'import-statement',
                  resolveDir: project,
                });
                resolved = realpathSync(result.path);
              });
            },
          },
        ],
      });
      return resolved;
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }

  it.each([
    ['svc-sdk/botcheck', 'botcheck'],
    ['svc-sdk', 'index'],
    ['svc-sdk/http', 'http'],
    ['svc-sdk/push', 'push'],
    ['svc-sdk/express', 'express'],
    ['svc-sdk/fastify', 'fastify'],
  ])('%s', async (specifier, name) => {
    ensureBuilt();
    for (const condition of ['workerd', 'worker', 'edge-light', 'browser']) {
      expect(await resolveAs(specifier, [condition])).toBe(join(ROOT, 'dist', 'web', `${name}.js`));
    }
    // (control) without them, an import gets the Node build.
    expect(await resolveAs(specifier, [])).toBe(join(ROOT, 'dist', `${name}.js`));
  });

  it("dist/web/botcheck.js names zod's entries (zod/mini, zod/v4/core) as imports and carries none of zod", () => {
    ensureBuilt();
    const { files, packages } = importGraph(join(ROOT, 'dist/web/botcheck.js'), { staticOnly: true });
    expect(packages.sort()).toEqual(['zod/mini', 'zod/v4/core']);
    expect(bundledFrom(files, 'zod')).toEqual([]);
  });
});

describe("the Node build carries none of zod's translations (import * as z from 'zod', never { z })", () => {
  // `import { z } from 'zod'` makes the bundler build zod's namespace object, with every locale
  // (some 600 KB) in the chunk every entry loads; the namespace import lets it keep only English.
  it('no chunk of dist/ or dist/cli/ holds a zod locale other than en', () => {
    ensureBuilt();
    const chunks = [join(ROOT, 'dist'), join(ROOT, 'dist', 'cli')].flatMap((dir) =>
      readdirSync(dir)
        .filter((name) => /\.c?js$/.test(name))
        .map((name) => join(dir, name)),
    );
    const withLocales = chunks.filter((file) =>
      /\/\/ node_modules\/zod\/v4\/locales\/(?!en\.js)/.test(readFileSync(file, 'utf8')),
    );
    expect(withLocales).toEqual([]);
    // (control) English is there: the check reads the bundled zod.
    expect(bundledFrom(chunks, 'zod/v4/locales').length).toBeGreaterThan(0);
  });
});

// Each file an entry loads at import costs about 0.4 ms of resolving and reading before the first
// call. The error classes live in one module (core/errors/error-classes.ts): one chunk, however
// many entries reach which error.
describe('importing an entry loads the error classes from one file, and no empty file', () => {
  it.each(LIBRARY_ENTRIES.filter((f) => f.endsWith('.js')))('%s', (file) => {
    ensureBuilt();
    const { files } = importGraph(join(ROOT, file), { staticOnly: true });
    expect(files.filter((f) => readFileSync(f, 'utf8').trim() === '')).toEqual([]);
    // esbuild names each source module it compiles into a chunk: `// src/core/errors/<file>.ts`.
    const errorFiles = files.filter((f) => readFileSync(f, 'utf8').includes('// src/core/errors/'));
    expect(errorFiles).toHaveLength(1);
    expect(carrying(errorFiles, 'src/core/errors/error-classes.ts')).toEqual(errorFiles);
  });
});
