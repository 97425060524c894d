import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The files a built module loads (itself included) and the packages it names, static and dynamic. */
export interface ImportGraph {
  files: string[];
  /** Bare specifiers (packages, Node built-ins with or without `node:`), dynamic ones marked `(dynamic)`. */
  packages: string[];
}

// `import ... from 'x'`, `export ... from 'x'`, `import 'x'`, `import('x')`, `require('x')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)(["'])([^"'\n]+)\1/g;

/** Walks the relative imports of a built file (dist/*.js or *.cjs) and lists what it loads. */
export function importGraph(entry: string): ImportGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const specifier = match[2] as string;
      if (specifier.startsWith('.')) walk(join(dirname(file), specifier));
      else packages.add(/\bimport\s*\(/.test(match[0]) ? `${specifier} (dynamic)` : specifier);
    }
  };
  walk(entry);
  return { files: [...files], packages: [...packages].sort() };
}
