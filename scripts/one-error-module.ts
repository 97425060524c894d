import { dirname, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * An esbuild plugin (for tsup's `esbuildPlugins`) that resolves every import of an error file of
 * `src/core/errors` (`abort-error.js`, `api-error.js`...) to the module that holds the classes,
 * `src/core/errors/error-classes.ts`. The per-class files only re-export from it (the source keeps
 * naming the file of the error it uses), but a bundler that splits code gives each module reached
 * by a different set of entries a chunk of its own, even an empty one: without this plugin each
 * re-export file would still be one more (empty) file to load at `import('svc-sdk/botcheck')`.
 */
export function oneErrorModule(root: string): Plugin {
  const errors = resolve(root, 'src/core/errors');
  const classes = resolve(errors, 'error-classes.ts');
  return {
    name: 'one-error-module',
    setup(build) {
      build.onResolve({ filter: /(^|\/)[a-z-]+-error\.js$/ }, (args) => {
        if (!args.path.startsWith('.')) return undefined;
        const target = resolve(args.resolveDir, args.path);
        return dirname(target) === errors ? { path: classes } : undefined;
      });
    },
  };
}
