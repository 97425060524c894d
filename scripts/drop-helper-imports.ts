import { basename } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * An esbuild plugin for tsup's Node builds (which build with `write: false` and a metafile): with
 * code splitting, esbuild puts its runtime helpers (`__export`, used by zod's `iso` namespace) in
 * a chunk of their own and imports that chunk, for nothing, from every entry and chunk
 * (evanw/esbuild#1892), so `import('svc-sdk/botcheck')` loaded one file more than it needs. A
 * chunk made of no module (only helpers) has no side effects: the bare `import "./chunk-X.js";`
 * lines of it are dropped; the files that use a helper keep their named import of it.
 */
export function dropHelperImports(): Plugin {
  return {
    name: 'drop-helper-imports',
    setup(build) {
      build.onEnd((result) => {
        const outputs = result.metafile?.outputs;
        if (!outputs || !result.outputFiles) return;
        const helperOnly = Object.entries(outputs)
          .filter(([path, output]) => path.endsWith('.js') && Object.keys(output.inputs).length === 0)
          .map(([path]) => basename(path));
        if (helperOnly.length === 0) return;
        const bare = new RegExp(
          `^import "\\./(?:${helperOnly.map((name) => name.replace(/[.$]/g, '\\$&')).join('|')})";\\n`,
          'gm',
        );
        result.outputFiles = result.outputFiles.map((file) => {
          const text = file.text;
          const dropped = text.replace(bare, '');
          if (dropped === text) return file;
          const contents = new TextEncoder().encode(dropped);
          return { path: file.path, contents, hash: file.hash, text: dropped };
        });
      });
    },
  };
}
