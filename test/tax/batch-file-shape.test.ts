import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The shape of the batch file run, as issue 34 set it: phases of small functions, one writer for
// every output, types that need no patching. Read from the source, so a regression shows here.
const DIR = join(import.meta.dirname, '../../src/node/batch-file');
const FILES = readdirSync(DIR, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.ts'))
  .map((name) => name.split(sep).join('/'));
const source = (name: string) => readFileSync(join(DIR, name), 'utf8');

/**
 * Also kept: output/earlier-results.ts types the rows of the run's own results file as it reads them back
 * (per row, on every resume and merge), where a parse would only re-check what the run wrote.
 */
const KEPT_CASTS = new Set(['xlsx/read.ts', 'xlsx/zip/entry-data.ts', 'output/earlier-results.ts']);

/** Every function of a file with a body, and how many lines it spans. */
function functionLengths(name: string): Array<{ name: string; lines: number }> {
  const file = ts.createSourceFile(name, source(name), ts.ScriptTarget.Latest, true);
  const found: Array<{ name: string; lines: number }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = file.getLineAndCharacterOfPosition(node.end).line;
      const named = node.name ? node.name.getText(file) : '(anonymous)';
      found.push({ name: `${name} ${named}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('No function of the batch file run is over 80 lines', () => {
  it('every function in src/node/batch-file (and its folders) fits in 80 lines', () => {
    const long = FILES.flatMap(functionLengths).filter((f) => f.lines > 80);
    expect(long).toEqual([]);
  });
});

describe('The phases write through one RowWriter and never ask what the output is', () => {
  it('the run and its phases name no output format, workbook or stream', () => {
    const phases = [
      'run.ts',
      'phases/send.ts',
      'phases/wait.ts',
      'wait/listen.ts',
      'phases/read.ts',
      'state/ledger.ts',
    ];
    const asking =
      /format\s*===|'csv'|'ndjson'|'rows'|\.xlsx|workbookPath|seekable\s*\?|instanceof\s+\w*Writer/;
    for (const name of phases) expect(source(name), name).not.toMatch(asking);
  });
});

/** Casts to an object shape (`x as { a?: T }`) and through unknown (`x as unknown as T`). */
function patchingCasts(name: string): string[] {
  const file = ts.createSourceFile(name, source(name), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isAsExpression(node) &&
      (ts.isTypeLiteralNode(node.type) || node.type.kind === ts.SyntaxKind.UnknownKeyword)
    )
      found.push(`${name}: ${node.getText(file)}`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('The batch file types need no patching casts', () => {
  it('no cast to an object shape or through unknown, outside the modules kept as they are', () => {
    const casts = FILES.filter((name) => !KEPT_CASTS.has(name)).flatMap(patchingCasts);
    expect(casts).toEqual([]);
  });
});
