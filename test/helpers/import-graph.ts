import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The files a built module loads (itself included) and the packages it names. */
export interface ImportGraph {
  files: string[];
  /** Bare specifiers (packages, Node built-ins with or without `node:`), dynamic ones marked `(dynamic)`. */
  packages: string[];
}

// `import ... from 'x'`, `export ... from 'x'`, `import 'x'`, `import('x')`, `require('x')`. Only
// what can name a module (a package, a built-in, a relative file with its extension): chunks that
// bundle a dependency (zod, commander) carry texts like `import('.command()` in strings.
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)(["'])((?:\.{1,2}\/[\w./-]+\.c?js|(?:node:)?@?[a-z][\w.-]*(?:\/[\w.-]+)*))\1/g;

/** An `import('x')`, or tsup's CJS form of it: `Promise.resolve().then(() => ...(require('x')))`. */
function isDynamic(code: string, match: RegExpMatchArray): boolean {
  if (/\bimport\s*\(/.test(match[0])) return true;
  const before = code.slice(Math.max(0, (match.index ?? 0) - 60), match.index);
  return /\.then\(\(\)\s*=>\s*[\w$]*\($/.test(before) || /\.then\(\(\)\s*=>\s*$/.test(before);
}

/**
 * Walks the relative imports of a built file (dist/*.js or *.cjs) and lists what it loads. With
 * `staticOnly`, files reached only through a dynamic import are not walked: what loading the
 * module itself loads.
 */
export function importGraph(entry: string, options: { staticOnly?: boolean } = {}): ImportGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(SPECIFIER)) {
      const specifier = match[2] as string;
      const dynamic = isDynamic(code, match);
      if (specifier.startsWith('.')) {
        if (!(dynamic && options.staticOnly)) walk(join(dirname(file), specifier));
      } else packages.add(dynamic ? `${specifier} (dynamic)` : specifier);
    }
  };
  walk(entry);
  return { files: [...files], packages: [...packages].sort() };
}
