import { describe, expect, it } from 'vitest';
import { SvcError } from '../../src/core/errors/index.js';
import { registerWebhookEndpoint } from '../../src/tax/webhooks/register-endpoint.js';
import { closedPort } from '../core/local-servers.js';
import { useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();

async function failure(run: Promise<unknown>): Promise<SvcError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SvcError);
  return error as SvcError;
}

describe('registerWebhookEndpoint adds a listener to a reference server through its admin API', () => {
  it('registers the URL', async () => {
    await registerWebhookEndpoint(server().url, 'http://127.0.0.1:1/hooks');
    expect(server().admin.webhookEndpoints()).toContain('http://127.0.0.1:1/hooks');
  });

  it('an unreachable server is a config error naming the admin URL', async () => {
    const admin = `http://127.0.0.1:${await closedPort()}`;
    const error = await failure(registerWebhookEndpoint(admin, 'http://127.0.0.1:1/hooks'));
    expect(error.code).toBe('config');
    expect(error.message).toBe(`cannot reach ${admin} to register the listener`);
  });

  it('a refusal is a config error with the HTTP status', async () => {
    const refuse = async () => new Response('no', { status: 404 });
    const error = await failure(
      registerWebhookEndpoint(server().url, 'http://127.0.0.1:1/hooks', { fetch: refuse }),
    );
    expect(error.code).toBe('config');
    expect(error.message).toBe(`registering the listener at ${server().url} failed with HTTP 404`);
  });
});
