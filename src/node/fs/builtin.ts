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
