import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/build.js';

// The tree says what runs where: code that needs Node lives in three folders, the Node wing
// (src/node: files, checkpoints, listeners, undici, the batch-file and audit jobs), the CLI and
// the reference server. Everything else in src/ must load on any runtime with fetch (Workers, edge
// routes, Deno, Bun, browsers): it imports no Node built-in, no Node package and nothing of those
// three folders, and does not reach Node through `process.getBuiltinModule` either.

/** The folders of Node-only code: the one list of the rule, and it is the tree's top level. */
const NODE_FOLDERS = ['src/node/', 'src/cli/', 'src/server/'];

/** Packages only Node-only code may load (they need Node's streams, files or terminal). */
const NODE_PACKAGES = new Set([
  'undici',
  'csv-parse',
  'csv-stringify',
  'exceljs',
  'iconv-lite',
  'commander',
  '@commander-js/extra-typings',
  'cli-table3',
  'ora',
  'conf',
  'string-width',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
]);

const isNodeOnly = (file: string): boolean => NODE_FOLDERS.some((folder) => file.startsWith(folder));

/** Every import of a module that stays at run time: static value imports, re-exports, `import()`. */
function valueImports(source: string, fileName: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause !== undefined &&
          clause.name === undefined &&
          clause.namedBindings !== undefined &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause !== undefined &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** What a Web-safe file at `file` (relative to the root) may not import, as one line each. */
function webSafeViolations(file: string, source: string): string[] {
  const problems: string[] = [];
  if (/\bgetBuiltinModule\b/.test(source))
    problems.push(`${file} reaches Node through process.getBuiltinModule`);
  for (const spec of valueImports(source, file)) {
    if (spec.startsWith('#')) {
      problems.push(`${file} imports ${spec}: a package import that may resolve to Node-only code`);
      continue;
    }
    if (spec.startsWith('.')) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), spec)).replace(/\.js$/, '.ts');
      if (isNodeOnly(target)) problems.push(`${file} imports the Node-only ${target}`);
      continue;
    }
    const bare = spec.startsWith('node:') ? spec.slice(5) : spec;
    if (spec.startsWith('node:') || builtinModules.includes(bare.split('/')[0] as string))
      problems.push(`${file} imports the Node built-in ${spec}`);
    const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
    if (NODE_PACKAGES.has(pkg)) problems.push(`${file} imports ${spec}, a package that needs Node`);
  }
  return problems;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative(ROOT, full)] : [];
  });
}

describe('Web-safe folders load no Node built-in and no Node-only module (what runs where is the tree)', () => {
  const all = sources(join(ROOT, 'src'));
  const webSafe = all.filter((file) => !isNodeOnly(file));

  it('the folders are what they say: both kinds have files', () => {
    expect(webSafe).toEqual(expect.arrayContaining(['src/botcheck/verify.ts', 'src/core/http.ts']));
    expect(all.filter(isNodeOnly)).toEqual(expect.arrayContaining(['src/node/fs/checkpoint.ts']));
  });

  it('no Web-safe module imports node:*, undici, a Node package, the Node folders, or calls getBuiltinModule', () => {
    const problems = webSafe.flatMap((file) =>
      webSafeViolations(file, readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(problems).toEqual([]);
  });

  it('the rule catches each kind of import it forbids, and lets types through', () => {
    const file = 'src/botcheck/example.ts';
    expect(webSafeViolations(file, "import { readFile } from 'node:fs/promises';")).toHaveLength(1);
    expect(webSafeViolations(file, "import { createHash } from 'crypto';")).toHaveLength(1);
    expect(webSafeViolations(file, "const u = await import('undici');")).toHaveLength(1);
    expect(
      webSafeViolations(file, "export { writeFileAtomic } from '../node/fs/atomic-file.js';"),
    ).toHaveLength(1);
    expect(
      webSafeViolations(file, "import { runExport } from '../node/audit-export/export.js';"),
    ).toHaveLength(1);
    expect(webSafeViolations(file, "const m = await import('../cli/main.js');")).toHaveLength(1);
    expect(webSafeViolations(file, "const { hash } = process.getBuiltinModule('node:crypto');")).toHaveLength(
      1,
    );
    expect(webSafeViolations(file, "import type { Agent } from 'undici';")).toEqual([]);
    expect(webSafeViolations(file, "import { type Agent } from 'undici';")).toEqual([]);
    expect(webSafeViolations(file, "import { loadBatchFile } from '#tax-node-only';")).toHaveLength(1);
    expect(webSafeViolations(file, "import { verify } from './verify.js';")).toEqual([]);
  });
});
