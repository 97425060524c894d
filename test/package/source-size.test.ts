import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build.js';

// A newcomer reads a file whole and a function at once: no source file over 400 lines, no
// function over 80. Declarative tables are the one exception (a route table, the OpenAPI path
// table): a long list of entries reads as a list, and cutting it would hide the whole.

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

/** Functions that are tables of routes or documented paths, by file and name. */
const TABLES = new Set([
  'src/openapi/paths.ts:paths',
  'src/server/admin-openapi.ts:buildAdminOpenApiDocument',
  'src/server/admin-core.ts:coreAdminModule',
  'src/server/tax/admin.ts:taxAdminRoutes',
  'src/server/tax/routes.ts:taxRoutes',
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each function-like node of a source with its name (or `(anonymous)`) and its length in lines. */
function functionLengths(text: string, file = 'x.ts'): Array<{ name: string; lines: number }> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Array<{ name: string; lines: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as ts.FunctionLikeDeclaration).name;
      const holder = ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined;
      const name = (named ?? holder)?.getText(sf) ?? '(anonymous)';
      found.push({ name, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const files = sources(join(ROOT, 'src')).map((path) => ({
  name: relative(ROOT, path).split('\\').join('/'),
  text: readFileSync(path, 'utf8'),
}));

describe('a source file is at most 400 lines', () => {
  it('holds for every file of src/', () => {
    const long = files
      .map(({ name, text }) => ({ name, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ name, lines }) => `${name}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});

describe('a function is at most 80 lines, outside declarative tables', () => {
  it('measures a function from its first to its last line, arrows and methods included', () => {
    const body = Array.from({ length: 80 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const found = functionLengths(
      `function long() {\n${body}\n}\nconst arrow = () => {\n  return 1;\n};\nclass C { m() { return 2; } }\n`,
    );
    expect(found).toEqual([
      { name: 'long', lines: 82 },
      { name: 'arrow', lines: 3 },
      { name: 'm', lines: 1 },
    ]);
  });

  it('holds for every function of src/ but the listed tables', () => {
    const long = files.flatMap(({ name, text }) =>
      functionLengths(text, name)
        .filter((fn) => fn.lines > MAX_FUNCTION_LINES && !TABLES.has(`${name}:${fn.name}`))
        .map((fn) => `${name}: ${fn.name}, ${fn.lines} lines`),
    );
    expect(long).toEqual([]);
  });

  it('lists only tables that exist and are long', () => {
    const present = new Set(
      files.flatMap(({ name, text }) =>
        functionLengths(text, name)
          .filter((fn) => fn.lines > MAX_FUNCTION_LINES)
          .map((fn) => `${name}:${fn.name}`),
      ),
    );
    expect([...TABLES].filter((entry) => !present.has(entry))).toEqual([]);
  });
});
