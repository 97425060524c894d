import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';
import { importGraph } from '../helpers/import-graph.js';

// Cold start (issue 23): each package file an entry loads at import is resolved, read and compiled
// before the first call, and zod's and undici's files were most of that time. The built graph of
// every entry is walked from its file through its static imports only (what `import` loads).

/** Bundled modules leave esbuild's `// node_modules/<name>/...` comment in the chunk. */
const bundledFrom = (files: string[], name: string) =>
  files.filter((f) => readFileSync(f, 'utf8').includes(`// node_modules/${name}/`));

const LIBRARY_ENTRIES = ['index', 'botcheck', 'http', 'express', 'fastify'].flatMap((e) => [
  `dist/${e}.js`,
  `dist/${e}.cjs`,
]);

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

  it('(control) the walk does see the zod bundled into the bot-check chunks', () => {
    ensureBuilt();
    const { files } = importGraph(join(ROOT, 'dist/botcheck.js'), { staticOnly: true });
    expect(bundledFrom(files, 'zod').length).toBeGreaterThan(0);
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
