import { afterAll } from 'vitest';
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

/**
 * Clients for the reference server of this test file, closed after the file: `client()` gives
 * one with the demo key, `client('ak_...')` one with another key.
 */
export function useTestClients(
  server: () => { url: string },
): (key?: string) => SvcClient & { delays: number[] } {
  const clients: SvcClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });
  return (key = 'ak_demo_project') => {
    const c = testClient(server().url, { apiKey: key });
    clients.push(c);
    return c;
  };
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}
