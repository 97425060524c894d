import { afterEach } from 'vitest';
import type { SvcClientOptions } from '../../src/client-options.js';
import { DEMO } from '../../src/server/fixtures.js';
import type { ReferenceServer } from '../../src/server/index.js';
import { testClient } from '../helpers/client.js';

/** Clients for the file's reference server (backoff recorded in `delays`), closed after each test. */
export function useClients(server: () => ReferenceServer) {
  const open: ReturnType<typeof testClient>[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  return (apiKey: string | undefined = DEMO.projectKey, options: SvcClientOptions = {}) => {
    const c = testClient(options.baseUrl === undefined ? server().url : String(options.baseUrl), {
      ...options,
      apiKey,
    });
    open.push(c);
    return c;
  };
}
