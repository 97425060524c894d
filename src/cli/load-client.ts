/**
 * The library's `SvcClient` class as the CLI makes its clients with it: loaded on first use, with
 * Node's transports (undici, node:http) as their default, as the Node build of `svc-sdk` gives them.
 */
export async function loadSvcClient(): Promise<typeof import('../client.js').SvcClient> {
  const [{ SvcClient }, { useNodePlatform }] = await Promise.all([
    import('../client.js'),
    import('../node/platform.js'),
  ]);
  useNodePlatform();
  return SvcClient;
}
