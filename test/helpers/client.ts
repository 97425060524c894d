import { SvcClient } from '../../src/client.js';
import type { SvcClientOptions } from '../../src/client-options.js';

/** A client for the test server; backoff waits are recorded instead of slept. */
export function testClient(
  baseUrl: string,
  options: SvcClientOptions = {},
): SvcClient & { delays: number[] } {
  const delays: number[] = [];
  const client = new SvcClient({
    baseUrl,
    apiKey: 'ak_demo_project',
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...options,
  }) as SvcClient & { delays: number[] };
  client.delays = delays;
  return client;
}
