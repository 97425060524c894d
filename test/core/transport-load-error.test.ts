import { describe, expect, it, vi } from 'vitest';
import { SvcError } from '../../src/core/errors/error-classes.js';
import { DEMO } from '../../src/server/fixtures.js';
import { testClient } from '../helpers/client.js';
import { useReferenceServer } from '../helpers/server.js';

// undici failing to load, as in Deno without --allow-env (it reads an environment variable on
// load): its own modules, which the transport loads first, and its public entry alike.
const refuse = vi.hoisted(() => () => {
  throw new Error('Requires env access to "NODE_DEBUG"');
});
vi.mock('undici/lib/dispatcher/agent.js', refuse);
vi.mock('undici/lib/api/api-request.js', refuse);
vi.mock('undici', refuse);

const server = useReferenceServer();

describe('a transport that cannot load is a configuration error, never a ConnectionError', () => {
  it('getResult fails with code config, without retries', async () => {
    const client = testClient(server().url, { apiKey: DEMO.projectKey });
    const { verificationId } = server().admin.createVerification();
    const error = await client.botCheck.getResult(verificationId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: 'config', name: 'SvcError' });
    expect((error as Error).message).toMatch(/^The undici transport cannot load in this runtime \(node\)/);
    expect(client.delays).toEqual([]);
    await expect(client.close()).resolves.toBeUndefined();
  });

  it('verify with failOpen rejects it: a local fault is not an outage', async () => {
    const client = testClient(server().url, { apiKey: DEMO.projectKey });
    const { token } = server().admin.createVerification();
    const outcome = await client.botCheck.verify(token, { failOpen: true });
    expect(outcome.decision).toBe('reject');
    expect(outcome.reasons.map((r) => r.code)).not.toContain('FAIL_OPEN');
    await client.close();
  });
});
