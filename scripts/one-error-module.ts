import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

/** A file that only re-exports names of the classes module, and nothing else. */
const REEXPORT_ONLY = /^\s*export \{[^}]*\} from '\.\/error-classes\.js';\s*$/;

/**
 * An esbuild plugin (for tsup's `esbuildPlugins`) that resolves every import of an error file of
 * `src/core/errors` that only re-exports from `error-classes.ts` (`abort-error.js`,
 * `api-error.js`...) to `error-classes.ts` itself. The source keeps naming the file of the error it
 * uses, but a bundler that splits code gives each module reached by a different set of entries a
 * chunk of its own, even an empty one: without this plugin each re-export file would still be one
 * more (empty) file to load at `import('svc-sdk/botcheck')`. An error file that holds code of its
 * own is resolved as usual.
 */
export function oneErrorModule(root: string): Plugin {
  const errors = resolve(root, 'src/core/errors');
  const classes = resolve(errors, 'error-classes.ts');
  const redirected = new Map<string, boolean>();
  const isReexport = (file: string): boolean => {
    let known = redirected.get(file);
    if (known === undefined) {
      try {
        known = REEXPORT_ONLY.test(readFileSync(file, 'utf8'));
      } catch {
        known = false;
      }
      redirected.set(file, known);
    }
    return known;
  };
  return {
    name: 'one-error-module',
    setup(build) {
      build.onResolve({ filter: /(^|\/)[a-z-]+-error\.js$/ }, (args) => {
        if (!args.path.startsWith('.')) return undefined;
        const target = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
        if (dirname(target) !== errors || !isReexport(target)) return undefined;
        return { path: classes };
      });
    },
  };
}
