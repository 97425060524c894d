import { describe, expect, it } from 'vitest';
import { type BusMessage, EventBus } from '../../src/server/events/bus.js';
import { requestEvent } from '../helpers/console-events.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

describe('event bus: history is bounded, newest kept', () => {
  it('keeps the last maxHistory events and says when a reconnecting reader missed some', () => {
    const bus = new EventBus(() => 0, 10);
    for (let i = 1; i <= 25; i++) bus.publish('request', requestEvent(`/p${i}`));
    const all = bus.since(undefined);
    expect(all.events.map((e) => e.id)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(bus.since(20).events.map((e) => e.id)).toEqual([21, 22, 23, 24, 25]);
    expect(bus.since(20).complete).toBe(true);
    expect(bus.since(3).complete).toBe(false);
  });

  it('a reset forgets the history and tells subscribers', () => {
    const bus = new EventBus(() => 0);
    const seen: BusMessage['kind'][] = [];
    bus.subscribe((m) => seen.push(m.kind));
    bus.publish('request', requestEvent('/a'));
    bus.reset();
    expect(bus.since(undefined).events).toEqual([]);
    expect(seen).toEqual(['event', 'reset']);
  });
});

describe('event bus: the API, the stores and the admin publish to it', () => {
  const server = useReferenceServer();

  it('a request, a verification fetch, a tax validation and an audit seed each appear once', async () => {
    const { url, admin } = server();
    const { verificationId } = admin.createVerification({ outcome: 'pass' });
    await rawRequest(url, 'GET', `/captcha/v2/verifications/${verificationId}/results`, {
      key: 'ak_demo_project',
    });
    await rawRequest(url, 'POST', '/taxvalidation/v1/validations', {
      key: 'ak_demo_project',
      body: { countryCode: 'DE', rawValue: 'DE136695976' },
    });
    admin.addAuditEvents({ count: 3 });
    const log = admin.consoleEvents();
    const types = log.map((e) => e.type);
    expect(types.filter((t) => t === 'verification')).toHaveLength(2);
    const fetched = log.find((e) => e.type === 'verification' && e.data.change === 'fetched');
    expect(fetched?.data).toMatchObject({ verificationId, outcome: 'pass', fetches: 1, maxFetches: 1 });
    const requests = log.filter((e) => e.type === 'request').map((e) => e.data);
    expect(requests).toEqual([
      expect.objectContaining({ method: 'GET', status: 200, key: 'ak_...', principal: 'project demo' }),
      expect.objectContaining({ method: 'POST', path: '/taxvalidation/v1/validations', status: 201 }),
    ]);
    expect(JSON.stringify(requests)).not.toContain('ak_demo_project');
    expect(log.find((e) => e.type === 'tax')?.data).toMatchObject({ countryCode: 'DE', outcome: 'VALID' });
    expect(log.find((e) => e.type === 'audit')?.data).toMatchObject({ added: 3, scope: 'project' });
  });
});
