import { describe, expect, it } from 'vitest';
import { normalizeLegacyReason } from '../../src/botcheck/schemas.js';
import { LocalValidationError } from '../../src/core/errors/error-classes.js';
import { DEMO } from '../../src/server/fixtures.js';
import { useJsonAnswerServer } from '../core/local-servers.js';
import { useReferenceServer } from '../helpers/server.js';
import { useClients } from './clients.js';

const server = useReferenceServer();
const client = useClients(server);
const codes = (o: { reasons: Array<{ code: string }> }) => o.reasons.map((r) => r.code);

describe('binding: expectedOrigins', () => {
  // The reference server reports the page https://www.example.com/contact.
  it('accepts a result solved on an expected origin (path and trailing slash ignored)', async () => {
    const { token } = server().admin.createVerification();
    const outcome = await client().botCheck.verify(token, {
      expectedOrigins: ['https://shop.example.org', 'https://www.example.com/'],
    });
    expect(outcome.decision).toBe('accept');
  });

  it('rejects another origin with ORIGIN_MISMATCH, also on the legacy API', async () => {
    const a = server().admin.createVerification();
    const b = server().admin.createVerification();
    const expectedOrigins = ['https://example.com'];
    const current = await client().botCheck.verify(a.token, { expectedOrigins });
    expect(current.decision).toBe('reject');
    expect(codes(current)[0]).toBe('ORIGIN_MISMATCH');
    const legacy = await client().legacyBotCheck.verify(b.token, { expectedOrigins });
    expect(codes(legacy)[0]).toBe('ORIGIN_MISMATCH');
  });

  it('minimal-data mode (empty origin) is accepted by default and rejected with ORIGIN_EMPTY on request', async () => {
    const a = server().admin.createVerification({ minimalDataMode: true });
    const b = server().admin.createVerification({ minimalDataMode: true });
    const expectedOrigins = ['https://www.example.com'];
    expect((await client().botCheck.verify(a.token, { expectedOrigins })).decision).toBe('accept');
    const strict = await client().botCheck.verify(b.token, { expectedOrigins, onEmptyOrigin: 'reject' });
    expect(strict.decision).toBe('reject');
    expect(codes(strict)[0]).toBe('ORIGIN_EMPTY');
  });
});

describe('binding: maxAgeMs from verificationFinishedAt (legacy: releaseTimestamp), with an injected clock', () => {
  it.each(['current', 'legacy'] as const)(
    '%s: accepts inside the window, rejects outside with TOO_OLD',
    async (api) => {
      const inside = server().admin.createVerification();
      const outside = server().admin.createVerification();
      const finished = server().admin.now();
      const c = client();
      const check = api === 'current' ? c.botCheck : c.legacyBotCheck;
      const young = await check.verify(inside.token, { maxAgeMs: 60_000, now: () => finished + 59_000 });
      expect(young.decision).toBe('accept');
      const old = await check.verify(outside.token, { maxAgeMs: 60_000, now: () => finished + 61_000 });
      expect(old.decision).toBe('reject');
      expect(codes(old)[0]).toBe('TOO_OLD');
    },
  );

  it('follows the server clock: a verification that finished 10 minutes ago is too old for 5 minutes', async () => {
    server().admin.setNow(Date.now() - 10 * 60_000);
    const { token } = server().admin.createVerification();
    const outcome = await client().botCheck.verify(token, { maxAgeMs: 5 * 60_000 });
    expect(codes(outcome)[0]).toBe('TOO_OLD');
  });
});

describe('binding: expectedCaptchaId', () => {
  it('accepts the demo captcha and rejects another with CAPTCHA_ID_MISMATCH', async () => {
    const a = server().admin.createVerification();
    const b = server().admin.createVerification();
    expect((await client().botCheck.verify(a.token, { expectedCaptchaId: DEMO.captchaId })).decision).toBe(
      'accept',
    );
    const other = await client().botCheck.verify(b.token, {
      expectedCaptchaId: '11111111-2222-3333-4444-555555555555',
    });
    expect(codes(other)[0]).toBe('CAPTCHA_ID_MISMATCH');
  });

  it('bad binding options throw LocalValidationError before any request', async () => {
    const { token } = server().admin.createVerification();
    for (const options of [{ expectedOrigins: ['not a url'] }, { expectedOrigins: [] }, { maxAgeMs: -1 }]) {
      await expect(client().botCheck.verify(token, options)).rejects.toBeInstanceOf(LocalValidationError);
    }
    expect(server().admin.requests()).toHaveLength(0);
  });
});

describe('a hostile server: answers are checked, not trusted', () => {
  const hostile = useJsonAnswerServer();

  const asked = '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f';

  it('a current result for another verificationId rejects with VERIFICATION_ID_MISMATCH', async () => {
    hostile.body = {
      verificationId: '99999999-5d4a-4b6c-9e8f-0a1b2c3d4e5f',
      verificationPassed: true,
      score: 0,
    };
    const outcome = await client(DEMO.projectKey, { baseUrl: hostile.url() }).botCheck.verify(asked);
    expect(outcome.decision).toBe('reject');
    expect(codes(outcome)[0]).toBe('VERIFICATION_ID_MISMATCH');
    hostile.body = { ...hostile.body, verificationId: asked.toUpperCase() };
    expect((await client(DEMO.projectKey, { baseUrl: hostile.url() }).botCheck.verify(asked)).decision).toBe(
      'accept',
    );
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'a legacy reason %s stays the string it is',
    async (reason) => {
      hostile.body = { verificationId: asked, verificationPassed: true, score: 0, reason };
      const result = await client(DEMO.projectKey, { baseUrl: hostile.url() }).legacyBotCheck.getAssessment(
        asked,
      );
      expect(result.reason).toBe(reason);
      expect(normalizeLegacyReason(reason)).toBe(reason);
    },
  );
});

describe('ids are checked for well-formed Unicode before they are encoded', () => {
  it.each(['\ud800', `3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5\udfff`])(
    'a lone surrogate gives LocalValidationError and sends nothing (%#)',
    async (id) => {
      const c = client();
      await expect(c.botCheck.getResult(id)).rejects.toBeInstanceOf(LocalValidationError);
      await expect(c.legacyBotCheck.getAssessment(id)).rejects.toBeInstanceOf(LocalValidationError);
      await expect(
        c.legacyBotCheck.getAssessment('3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f', { accessToken: 'a\ud800' }),
      ).rejects.toBeInstanceOf(LocalValidationError);
      expect((await c.botCheck.verify(id)).reasons[0]?.code).toBe('TOKEN_INVALID');
      expect(server().admin.requests()).toHaveLength(0);
    },
  );
});
