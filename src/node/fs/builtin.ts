import type * as NodeBuffer from 'node:buffer';
import type * as NodeCrypto from 'node:crypto';
import type * as NodeFs from 'node:fs';
import type * as NodeHttp from 'node:http';
import type * as NodeModule from 'node:module';
import type * as NodeTls from 'node:tls';
import { SvcError } from '../../core/errors/error-classes.js';
import { currentRuntime } from '../../core/runtime.js';

/** The Node built-ins the library reaches synchronously, at the feature that needs them. */
interface NodeBuiltins {
  'node:buffer': typeof NodeBuffer;
  'node:crypto': typeof NodeCrypto;
  'node:fs': typeof NodeFs;
  'node:http': typeof NodeHttp;
  'node:module': typeof NodeModule;
  'node:tls': typeof NodeTls;
}

type GetBuiltinModule = (name: string) => unknown;

/**
 * A Node built-in, loaded when a feature first needs it rather than when the package loads, so the
 * root entry runs where there is none (Workers without nodejs_compat, edge runtimes). Uses
 * `process.getBuiltinModule` (Node 20.16+, Bun, Deno, workerd with nodejs_compat), which bundlers
 * leave alone.
 *
 * @throws {SvcError} code `unsupported_runtime`, naming the runtime and `feature`, where the runtime
 *   has no such module.
 */
export function nodeBuiltin<K extends keyof NodeBuiltins>(name: K, feature: string): NodeBuiltins[K] {
  const get = (globalThis as { process?: { getBuiltinModule?: GetBuiltinModule } }).process?.getBuiltinModule;
  const loaded = typeof get === 'function' ? get(name) : undefined;
  if (loaded === undefined) {
    throw new SvcError(
      `${feature} needs Node's ${name}, which this runtime (${currentRuntime().name}) does not provide; ` +
        'run it on Node, Bun, Deno or Workers with nodejs_compat',
      'unsupported_runtime',
    );
  }
  return loaded as NodeBuiltins[K];
}

/**
 * The error of a Node-only feature (files, sockets, undici, CSV and workbooks) called in the build
 * of the root entry for Workers, edge runtimes and browsers (package.json conditions `workerd`,
 * `worker`, `edge-light` and `browser`), which leaves that machinery out: code `unsupported_runtime`,
 * naming the feature and the runtime. Thrown when the feature's module loads, i.e. at the call.
 */
export function leftOutOfWebBuild(feature: string): SvcError {
  return new SvcError(
    `${feature} needs Node and is not part of svc-sdk's build for Workers, edge runtimes and browsers ` +
      `(this runtime: ${currentRuntime().name}); run it on Node, Bun or Deno`,
    'unsupported_runtime',
  );
}

/**
 * A loader of a Node-only feature for the builds without Node (the `*-node-only-web.ts` files
 * package.json `imports` picks there): it rejects with {@link leftOutOfWebBuild} at the call,
 * never at import.
 */
export const leftOutLoader =
  (feature: string) =>
  (..._args: unknown[]): Promise<never> =>
    Promise.reject(leftOutOfWebBuild(feature));
