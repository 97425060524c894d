import { provideSchemaCompiler } from '../core/schema-compiler.js';

/**
 * Gives the library the CLI loads what the Node build of `svc-sdk` gives it (src/node/platform.ts):
 * Node's transports as its clients' default, node:crypto's digest. Before any client is made or
 * `diagnose` runs; loaded on first use, so `svc --help` reads none of it. And, the CLI's own, zod's
 * compiler for the parses `svc batch` makes per row and per answer item (core/schema-compiler.ts):
 * the library's builds leave it out, since zod's compiler (about 75 KB) would sit in the chunk
 * every entry of theirs imports.
 */
export async function provideNodePlatform(): Promise<void> {
  const { useNodePlatform } = await import('../node/platform.js');
  useNodePlatform();
  provideSchemaCompiler(() => import('../node/schema-compiler.js').then((m) => m.compileSchema));
}

/** The library's `SvcClient` class as the CLI makes its clients with it: on the Node platform. */
export async function loadSvcClient(): Promise<typeof import('../client.js').SvcClient> {
  const [{ SvcClient }] = await Promise.all([import('../client.js'), provideNodePlatform()]);
  return SvcClient;
}
