import { afterAll, afterEach, beforeAll } from 'vitest';
import { createReferenceServer, type ReferenceServer } from '../../src/server/index.js';

/**
 * Starts one reference server for the test file on 127.0.0.1:0 and resets it after every test.
 * Returns a getter, since the server exists only once `beforeAll` ran.
 */
export function useReferenceServer(): () => ReferenceServer {
  let server: ReferenceServer | undefined;
  beforeAll(async () => {
    server = await createReferenceServer();
  });
  afterEach(() => {
    server?.admin.reset();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('reference server not started');
    return server;
  };
}

/**
 * A fetch against the server with optional key, returning status, headers and parsed body. Every
 * request but a GET says `content-type: application/json`, as a dev server requires of changes.
 */
export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  init: { key?: string; header?: 'bearer' | 'svc-authorization'; body?: unknown } = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined || method !== 'GET') headers['content-type'] = 'application/json';
  if (init.key !== undefined) {
    if (init.header === 'svc-authorization') headers['svc-authorization'] = init.key;
    else headers.authorization = `Bearer ${init.key}`;
  }
  const res = await fetch(baseUrl + path, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // keep text
  }
  return { status: res.status, headers: res.headers, body };
}
