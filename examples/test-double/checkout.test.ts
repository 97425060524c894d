/**
 * The reference server as a test double in your own vitest suite: a real HTTP server on a free
 * loopback port, in memory, with admin controls to create bot-check verifications, switch a
 * registry to slow or down, and reset between tests. No mocks of the client, no network.
 *
 * In your project:
 *   import { SvcClient } from 'svc-sdk';
 *   import { createReferenceServer, DEMO, type ReferenceServer } from 'svc-sdk/server';
 * (here they come from this checkout's sources; `test/examples/test-double.test.ts` runs this file).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '../../src/index.js';
import { createReferenceServer, DEMO, type ReferenceServer } from '../../src/server/index.js';
import { checkout } from './checkout.js';

let server: ReferenceServer;
let client: SvcClient;

beforeAll(async () => {
  server = await createReferenceServer();
  client = new SvcClient({ baseUrl: server.url, apiKey: DEMO.projectKey });
});
afterEach(() => {
  // Back to the fixture: no verifications, registries answering, no faults.
  server.admin.reset();
  client.botCheck.clearVerifyCache();
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** A token of a finished verification, as the checkout form would post it. */
const token = (input: Parameters<ReferenceServer['admin']['createVerification']>[0] = {}) =>
  server.admin.createVerification(input).token;

describe('checkout: the bot check comes first', () => {
  it('a failed bot check blocks the order before any VAT check', async () => {
    const decision = await checkout(client, {
      verificationToken: token({ passed: false }),
      countryCode: 'DE',
      vatId: 'DE136695976',
    });
    expect(decision).toEqual({ status: 'blocked' });
    expect(server.admin.stats().validationsProcessed).toBe(0);
  });

  it('a missing token blocks the order', async () => {
    expect(await checkout(client, { verificationToken: undefined, countryCode: 'DE' })).toEqual({
      status: 'blocked',
    });
  });

  it('a doubtful score asks for an extra check, a bot-like one blocks, a clean one passes', async () => {
    const doubtful = await checkout(client, { verificationToken: token({ score: 0.5 }), countryCode: 'DE' });
    expect(doubtful).toEqual({ status: 'extra-check-needed' });
    const botLike = await checkout(client, { verificationToken: token({ score: 0.9 }), countryCode: 'DE' });
    expect(botLike).toEqual({ status: 'blocked' });
    const clean = await checkout(client, { verificationToken: token({ score: 0.1 }), countryCode: 'DE' });
    expect(clean).toEqual({ status: 'accepted', vat: 'charge-vat', vatCheck: 'NONE', review: false });
  });
});

describe('checkout: VAT treatment follows the registry', () => {
  it('a confirmed VAT ID gets the reverse charge', async () => {
    const decision = await checkout(client, {
      verificationToken: token({ score: 0.1 }),
      countryCode: 'DE',
      vatId: 'DE136695976',
      companyName: 'Nordlicht Logistics GmbH',
    });
    expect(decision).toEqual({ status: 'accepted', vat: 'reverse-charge', vatCheck: 'VALID', review: false });
  });

  it('a check-digit typo is caught locally, nothing is sent', async () => {
    const decision = await checkout(client, {
      verificationToken: token({ score: 0.1 }),
      countryCode: 'DE',
      vatId: 'DE136695977',
    });
    expect(decision.status).toBe('vat-id-malformed');
    expect(server.admin.stats().validationsProcessed).toBe(0);
  });

  it('a registry that is down never counts as invalid: VAT is charged and the order flagged', async () => {
    server.admin.setProviderMode('VIES', 'unavailable');
    const decision = await checkout(client, {
      verificationToken: token({ score: 0.1 }),
      countryCode: 'AT',
      vatId: 'ATU13585627',
    });
    expect(decision).toEqual({
      status: 'accepted',
      vat: 'charge-vat',
      vatCheck: 'SOURCE_UNAVAILABLE',
      review: true,
    });
  });

  it('a registry that answers later leaves the order pending review', async () => {
    server.admin.setProviderMode('VIES', 'async');
    const decision = await checkout(client, {
      verificationToken: token({ score: 0.1 }),
      countryCode: 'FR',
      vatId: 'FR40303265045',
    });
    expect(decision).toEqual({ status: 'accepted', vat: 'charge-vat', vatCheck: 'PENDING', review: true });
  });
});
