import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build as esbuild, type Plugin } from 'esbuild';

/** The entry whose static imports become one file. */
const ENTRY = 'src/botcheck/index.ts';
/** The name, on that entry's Node build, of the object that hands its modules to the other entries. */
const SHARED = '__svcBotCheckModules';
const NAMESPACE = 'svc-botcheck-module';

/**
 * The modules `ENTRY` loads at import (not those it loads with `import()`), relative to `root`,
 * each with the names it exports.
 */
async function staticModules(root: string): Promise<Map<string, string[]>> {
  const graph = await esbuild({
    absWorkingDir: root,
    entryPoints: [ENTRY],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outdir: 'graph',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const outputs = graph.metafile.outputs;
  const entry = Object.values(outputs).find((output) => output.entryPoint === ENTRY);
  if (!entry) throw new Error(`botcheck-one-file: no output for ${ENTRY}`);
  const loaded = [
    entry,
    ...entry.imports.flatMap((i) => (i.kind === 'import-statement' ? [outputs[i.path]] : [])),
  ];
  const modules = [...new Set(loaded.flatMap((output) => (output ? Object.keys(output.inputs) : [])))].filter(
    (path) => path.startsWith('src/'),
  );
  // Each module bundled as an entry of its own: its output lists every name it exports, those of
  // `export *` included.
  const names = await esbuild({
    absWorkingDir: root,
    entryPoints: modules,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outdir: 'names',
    outbase: '.',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const exportsOf = new Map<string, string[]>();
  for (const output of Object.values(names.metafile.outputs)) {
    if (output.entryPoint) exportsOf.set(output.entryPoint, output.exports);
  }
  // The other entries get each name's value when the entry's file loads: a binding that changes
  // later (`export let`) would not reach them, and `export default` has no name to pass on.
  for (const path of modules) {
    const source = await readFile(resolve(root, path), 'utf8');
    const changing = /^export\s+(?:let|var|default)\b/m.exec(source);
    if (changing)
      throw new Error(
        `botcheck-one-file: ${path} has \`${changing[0]}\`: export a const, a function or a class`,
      );
  }
  return new Map(modules.map((path) => [path, exportsOf.get(path) ?? []]));
}

/**
 * An esbuild plugin for the library's Node build (tsup's `esbuildPlugins`): `import('svc-sdk/botcheck')`
 * loads one file. Node's loader costs about half a millisecond per file, and esbuild would split
 * the bot-check modules into as many chunks as there are sets of entries (the root, the adapters,
 * the root's lazily loaded features) that share them.
 *
 * The modules the `svc-sdk/botcheck` entry loads at import stay in its own output, which also
 * exports them as one object. Every other entry and chunk of the build takes them from that file
 * (`./botcheck.js`, or `./botcheck.cjs` in the CommonJS build) instead of a chunk: one copy of each
 * class, so `instanceof` holds across `svc-sdk`, `svc-sdk/botcheck` and the adapters. The object
 * is not part of the typed API (dist/botcheck.d.ts does not declare it).
 */
export function botCheckOneFile(root: string): Plugin {
  const entryPath = resolve(root, ENTRY);
  return {
    name: 'botcheck-one-file',
    async setup(build) {
      const modules = await staticModules(root);
      const byPath = new Map([...modules.keys()].map((path) => [resolve(root, path), path]));
      const extension = build.initialOptions.outExtension?.['.js'] ?? '.js';
      const sharedFile = `./botcheck${extension}`;

      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.namespace === NAMESPACE) return { path: sharedFile, external: true };
        if (byPath.has(args.importer)) return undefined;
        const target = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
        // The entry itself is built as written; another entry that is one of its modules (the
        // adapters' `svc-sdk/http`) becomes a file that takes it from the entry's file.
        if (target === entryPath) return undefined;
        const path = byPath.get(target);
        return path === undefined ? undefined : { path, namespace: NAMESPACE };
      });

      // A bot-check module imported from outside: the names it exports, taken from the entry's file.
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const names = modules.get(args.path) ?? [];
        const lines = [`import { ${SHARED} } from ${JSON.stringify(sharedFile)};`];
        if (names.length > 0)
          lines.push(`export const { ${names.join(', ')} } = ${SHARED}[${JSON.stringify(args.path)}];`);
        return { contents: `${lines.join('\n')}\n`, loader: 'js', resolveDir: root };
      });

      // The entry itself: as written, plus the object of its modules.
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path !== entryPath) return undefined;
        const source = await readFile(args.path, 'utf8');
        // Named imports into plain objects: `import * as` would add esbuild's namespace helper, a
        // chunk of its own that every file of the build would load.
        const imports: string[] = [];
        const entries: string[] = [];
        [...modules].forEach(([path, names], i) => {
          if (path === ENTRY) return;
          const local = names.map((name) => `${name} as __svc${i}_${name}`);
          imports.push(`import { ${local.join(', ')} } from ${JSON.stringify(resolve(root, path))};`);
          const fields = names.map((name) => `${name}: __svc${i}_${name}`);
          entries.push(`${JSON.stringify(path)}: { ${fields.join(', ')} }`);
        });
        const table = entries.join(', ');
        return {
          contents: `${source}\n${imports.join('\n')}\n/** @internal */\nexport const ${SHARED} = { ${table} };\n`,
          loader: 'ts',
        };
      });
    },
  };
}
