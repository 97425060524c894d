import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/build.js';

// The types tell what ships: a name an entry's .d.ts declares as a value must be one its
// JavaScript exports (else `import { X } from 'svc-sdk'; X()` type-checks and fails at run time),
// and every name its JavaScript exports must be declared (no hidden runtime export).

/** Each entry: its declarations and its JavaScript, ESM and CommonJS (package.json `exports`). */
const ENTRIES = [
  ['svc-sdk', 'index', 'index'],
  ['svc-sdk/botcheck', 'botcheck', 'botcheck'],
  ['svc-sdk/http', 'http', 'http'],
  ['svc-sdk/push', 'push', 'push'],
  ['svc-sdk/express', 'express', 'express'],
  ['svc-sdk/fastify', 'fastify', 'fastify'],
  ['svc-sdk/server', 'server', 'server/index'],
].flatMap(([name, types, code]) => [
  { name: `${name} (ESM)`, types: `dist/${types}.d.ts`, code: `dist/${code}.js` },
  { name: `${name} (CommonJS)`, types: `dist/${types}.d.cts`, code: `dist/${code}.cjs` },
]);

let program: ts.Program;
beforeAll(() => {
  ensureBuilt();
  program = ts.createProgram(
    ENTRIES.map((e) => join(ROOT, e.types)),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      noEmit: true,
    },
  );
}, 600_000);

/**
 * The names a declaration file declares as values: the properties of its module's namespace
 * object, as the compiler sees `import * as m` (type-only exports, interfaces and type aliases
 * are not there).
 */
function declaredValues(file: string): string[] {
  const source = program.getSourceFile(join(ROOT, file));
  if (!source) throw new Error(`${file} is not in the program`);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${file} is not a module`);
  return checker
    .getTypeOfSymbol(module)
    .getProperties()
    .map((p) => p.name)
    .sort();
}

/** The names the built JavaScript exports, loaded as Node loads it. */
async function exportedValues(file: string): Promise<string[]> {
  const path = join(ROOT, file);
  const loaded = file.endsWith('.cjs')
    ? (createRequire(import.meta.url)(path) as object)
    : ((await import(pathToFileURL(path).href)) as object);
  return Object.keys(loaded).sort();
}

describe('every entry declares as a value exactly what its JavaScript exports, ESM and CommonJS alike', () => {
  it.each(ENTRIES)('$name', async ({ types, code }) => {
    const declared = declaredValues(types);
    const exported = await exportedValues(code);
    expect(declared.filter((name) => !exported.includes(name))).toEqual([]);
    expect(exported.filter((name) => !declared.includes(name))).toEqual([]);
    // (control) the comparison sees values at all.
    expect(exported.length).toBeGreaterThan(0);
  });
});
