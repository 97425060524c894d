/**
 * Gives the library the CLI loads what the Node build of `svc-sdk` gives it (src/node/platform.ts):
 * Node's transports as its clients' default, node:crypto's digest. Before any client is made or
 * `diagnose` runs; loaded on first use, so `svc --help` reads none of it.
 */
export async function provideNodePlatform(): Promise<void> {
  const { useNodePlatform } = await import('../node/platform.js');
  useNodePlatform();
}

/** The library's `SvcClient` class as the CLI makes its clients with it: on the Node platform. */
export async function loadSvcClient(): Promise<typeof import('../client.js').SvcClient> {
  const [{ SvcClient }] = await Promise.all([import('../client.js'), provideNodePlatform()]);
  return SvcClient;
}
