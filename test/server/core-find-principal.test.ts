import { describe, expect, it, vi } from 'vitest';

// Count the constant-time comparisons: a lookup must compare against every key, found or not.
const compare = vi.hoisted(() => ({ calls: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return {
    ...original,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compare.calls += 1;
      return original.timingSafeEqual(a, b);
    },
  };
});

const { findPrincipal } = await import('../../src/server/auth.js');
const { DEMO, fixturePrincipals, TEST_KEY } = await import('../../src/server/fixtures.js');

describe('key lookup is constant-time and returns the right principal', () => {
  const principals = fixturePrincipals();

  it('finds each fixture key', () => {
    expect(findPrincipal(principals, DEMO.projectKey)).toMatchObject({ kind: 'project', ownerId: 'demo' });
    expect(findPrincipal(principals, DEMO.agencyKey)).toMatchObject({
      kind: 'agency',
      ownerId: 'demo-agency',
    });
    expect(findPrincipal(principals, DEMO.basicKey)?.plan.auditLog).toBe(false);
    expect(findPrincipal(principals, DEMO.lockedKey)?.locked).toBe(true);
    expect(findPrincipal(principals, DEMO.expiredKey)?.expired).toBe(true);
    expect(findPrincipal(principals, TEST_KEY)?.ownerId).toBe('test');
    expect(findPrincipal(principals, DEMO.captchaSecret)).toMatchObject({
      kind: 'captcha-secret',
      captchaId: DEMO.captchaId,
    });
    for (const [key, principal] of principals) expect(findPrincipal(principals, key)).toBe(principal);
  });

  it('finds nothing for near misses', () => {
    for (const miss of ['', 'ak_demo_projec', 'ak_demo_projectx', 'AK_DEMO_PROJECT', ` ${DEMO.projectKey}`]) {
      expect(findPrincipal(principals, miss), JSON.stringify(miss)).toBeUndefined();
    }
  });

  it('compares against every key whether the key is first, last or unknown', () => {
    const keys = [...principals.keys()];
    for (const presented of [keys[0]!, keys.at(-1)!, 'ak_unknown']) {
      compare.calls = 0;
      findPrincipal(principals, presented);
      expect(compare.calls, presented).toBe(principals.size);
    }
  });
});
