import { basename, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

/**
 * The modules the root entry loads on first use that need Node (files, sockets, undici, CSV,
 * workbooks), each with the feature named in the error, relative to the project root. In the build
 * for Workers, edge runtimes and browsers, each is replaced by a module that throws
 * `leftOutOfWebBuild(feature)` when it loads, so that bundlers of those targets (wrangler,
 * Next.js, esbuild) never reach `node:fs`, `node:sqlite` (undici) or `stream` (csv-parse).
 */
const NODE_ONLY: Record<string, string> = {
  'src/audit/export.ts': 'client.audit.exportEvents',
  'src/audit/sync.ts': 'client.audit.sync',
  'src/audit/archive-gaps.ts': 'The audit archive gap functions',
  'src/audit/sync-lock.ts': 'The audit archive gap functions',
  'src/audit/sync-state.ts': 'The audit archive gap functions',
  'src/audit/archive-verify.ts': 'verifyAuditArchive',
  'src/tax/batch-file/run-batch-file.ts': 'client.tax.runBatchFile',
  undici: 'undici, the Node HTTP client,',
  'node:http': 'The node:http transport',
  'node:https': 'The node:http transport',
};

const NAMESPACE = 'svc-node-only';

/**
 * An esbuild plugin (for tsup's `esbuildPlugins`) that replaces the dynamic imports of the modules
 * in `NODE_ONLY` by a module that throws the documented `unsupported_runtime` error. Static imports
 * are left alone: a Node built-in imported statically still fails the build, as it should.
 */
export function nodeOnlyStubs(root: string): Plugin {
  const featureOf = new Map(
    Object.entries(NODE_ONLY).map(([path, feature]) => [
      path.startsWith('src/') ? resolve(root, path) : path,
      feature,
    ]),
  );
  const errorModule = resolve(root, 'src/core/node-builtin.ts');
  return {
    name: 'node-only-stubs',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const target = args.path.startsWith('.')
          ? resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts')
          : args.path;
        // undici's own modules (core/transport/undici-load.ts) are undici too.
        const feature =
          featureOf.get(target) ?? (target.startsWith('undici/') ? featureOf.get('undici') : undefined);
        if (feature === undefined) return undefined;
        // The path names the output chunk: unsupported-<module>-<hash>.js.
        const path = `unsupported-${basename(target, '.ts').replace(/[^a-z0-9-]/gi, '-')}`;
        return { path, namespace: NAMESPACE, pluginData: feature };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents:
          `import { leftOutOfWebBuild } from ${JSON.stringify(errorModule)};\n` +
          `throw leftOutOfWebBuild(${JSON.stringify(args.pluginData)});\n`,
        loader: 'ts',
        resolveDir: root,
      }));
    },
  };
}
