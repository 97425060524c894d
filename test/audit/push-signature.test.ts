import { createHmac, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signAuditPush, verifyAuditPush } from '../../src/audit/push/signature.js';
import { SvcError } from '../../src/core/errors/error-classes.js';

// standardwebhooks' own verify reads Date.now(), so the cross checks sign at the real time; every
// other test injects its clock.
const NOW_MS = 1_760_000_000_000;
const NOW = NOW_MS / 1000;
const now = () => NOW_MS;
const encoder = new TextEncoder();

const newSecret = (bytes = 32) => `whsec_${randomBytes(bytes).toString('base64')}`;
const secretArb = fc
  .uint8Array({ minLength: 24, maxLength: 64 })
  .map((key) => `whsec_${Buffer.from(key).toString('base64')}`);
const idArb = fc.string({ minLength: 1, maxLength: 40 });
const textArb = fc.string({ unit: 'binary', maxLength: 300 });

function headersOf(id: string, timestamp: number, signature: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

async function signed(secret: string, body: Uint8Array, id = 'msg_1', timestamp = NOW) {
  return { body, headers: headersOf(id, timestamp, await signAuditPush(secret, id, timestamp, body)) };
}

describe('signAuditPush signs as the Standard Webhooks reference library does, and each verifies the other', () => {
  it('the same v1 entry as Webhook.sign, for random secrets, ids, times and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        secretArb,
        idArb,
        fc.integer({ min: 0, max: 4_000_000_000 }),
        textArb,
        async (s, id, t, text) => {
          expect(await signAuditPush(s, id, t, text)).toBe(new Webhook(s).sign(id, new Date(t * 1000), text));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('verifyAuditPush accepts what standardwebhooks signs', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, idArb, textArb, async (secret, id, text) => {
        const date = new Date();
        const timestamp = Math.floor(date.getTime() / 1000);
        const signature = new Webhook(secret).sign(id, date, text);
        const check = await verifyAuditPush({
          body: encoder.encode(text),
          headers: headersOf(id, timestamp, signature),
          secrets: [secret],
        });
        expect(check).toEqual({ ok: true, check: 'standard-webhooks', id, timestamp });
      }),
      { numRuns: 100 },
    );
  });

  it('standardwebhooks verifies what signAuditPush signs', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, idArb, textArb, async (secret, id, text) => {
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = headersOf(id, timestamp, await signAuditPush(secret, id, timestamp, text));
        expect(() => new Webhook(secret).verify(text, headers, { jsonParse: false })).not.toThrow();
      }),
      { numRuns: 100 },
    );
  });
});

describe('the signed content is the body as sent: the gzip bytes when gzipped', () => {
  // standardwebhooks 1.1.1 turns a Buffer into a UTF-8 string before signing, which changes bytes
  // that are not UTF-8 (gzip), so binary bodies are checked against node:crypto's HMAC instead.
  it('HMAC-SHA256 of "<id>.<timestamp>." and the bytes, under the decoded key', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 24, maxLength: 64 }),
        idArb,
        fc.uint8Array(),
        async (key, id, bytes) => {
          const secret = `whsec_${Buffer.from(key).toString('base64')}`;
          const body = gzipSync(bytes);
          const expected = createHmac('sha256', key)
            .update(Buffer.concat([Buffer.from(`${id}.${NOW}.`), body]))
            .digest('base64');
          expect(await signAuditPush(secret, id, NOW, body)).toBe(`v1,${expected}`);
          const check = await verifyAuditPush({
            ...(await signed(secret, body, id)),
            secrets: [secret],
            now,
          });
          expect(check.ok).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('verifyAuditPush refuses what the secrets did not sign, with a one-line reason', () => {
  const secret = newSecret();

  it('a body changed by one byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (bytes, at, flip) => {
          const push = await signed(secret, bytes);
          const changed = Uint8Array.from(bytes);
          changed[at % bytes.length] = (changed[at % bytes.length] as number) ^ flip;
          const check = await verifyAuditPush({
            body: changed,
            headers: push.headers,
            secrets: [secret],
            now,
          });
          expect(check).toEqual({ ok: false, reason: 'no signature matches' });
        },
      ),
      { numRuns: 50 },
    );
  });

  it.each([
    ['past', -360],
    ['future', 360],
  ])('a timestamp 6 minutes in the %s', async (_, offset) => {
    const push = await signed(secret, encoder.encode('{}'), 'msg_1', NOW + offset);
    expect(await verifyAuditPush({ ...push, secrets: [secret], now })).toEqual({
      ok: false,
      reason: 'timestamp 360 s off (tolerance 300 s)',
    });
  });

  it('5 minutes either way is within the default tolerance; toleranceSeconds narrows it', async () => {
    for (const offset of [-300, 300]) {
      const push = await signed(secret, encoder.encode('{}'), 'msg_1', NOW + offset);
      expect((await verifyAuditPush({ ...push, secrets: [secret], now })).ok).toBe(true);
      expect(await verifyAuditPush({ ...push, secrets: [secret], now, toleranceSeconds: 60 })).toEqual({
        ok: false,
        reason: 'timestamp 300 s off (tolerance 60 s)',
      });
    }
  });

  it('an unknown secret, or the signing secret removed from the list', async () => {
    const push = await signed(secret, encoder.encode('{}'));
    const other = newSecret();
    expect(await verifyAuditPush({ ...push, secrets: [other], now })).toEqual({
      ok: false,
      reason: 'no signature matches',
    });
    expect(await verifyAuditPush({ ...push, secrets: [secret, other], now })).toMatchObject({ ok: true });
    expect(await verifyAuditPush({ ...push, secrets: [other], now })).toMatchObject({ ok: false });
  });

  it.each([
    ['webhook-signature', 'no webhook-signature header'],
    ['webhook-id', 'no webhook-id header'],
    ['webhook-timestamp', 'no webhook-timestamp header'],
  ])('a missing %s header', async (name, reason) => {
    const push = await signed(secret, encoder.encode('{}'));
    const headers = { ...push.headers };
    delete headers[name];
    expect(await verifyAuditPush({ body: push.body, headers, secrets: [secret], now })).toEqual({
      ok: false,
      reason,
    });
  });

  it('a timestamp that is not unix seconds, and a header with no v1 entry', async () => {
    const push = await signed(secret, encoder.encode('{}'));
    for (const stamp of ['', '1.5', '-1', '17e8', 'now']) {
      const headers = { ...push.headers, 'webhook-timestamp': stamp };
      expect(await verifyAuditPush({ body: push.body, headers, secrets: [secret], now })).toEqual({
        ok: false,
        reason: 'webhook-timestamp is not unix seconds',
      });
    }
    const v1a = {
      ...push.headers,
      'webhook-signature': `v1a,${push.headers['webhook-signature']!.slice(3)}`,
    };
    expect(await verifyAuditPush({ body: push.body, headers: v1a, secrets: [secret], now })).toEqual({
      ok: false,
      reason: 'no v1 signature in webhook-signature',
    });
  });

  it('no reason contains a secret or a header value', async () => {
    const push = await signed(secret, encoder.encode('{}'));
    const reasons = await Promise.all([
      verifyAuditPush({ ...push, secrets: [newSecret()], now }),
      verifyAuditPush({
        body: push.body,
        headers: { authorization: 'Bearer nope' },
        secrets: [],
        bearer: ['s3cr3t'],
        now,
      }),
      verifyAuditPush({ ...push, secrets: [secret], now: () => 0 }),
    ]);
    for (const check of reasons) {
      expect(check.ok).toBe(false);
      const reason = check.ok ? '' : check.reason;
      for (const value of [secret, secret.slice(6), 's3cr3t', 'nope', push.headers['webhook-signature']!]) {
        expect(reason).not.toContain(value);
      }
      expect(reason).not.toContain('\n');
    }
  });
});

describe('secret rotation: any v1 entry may match any of the secrets', () => {
  it('a signature list with one bad and one good entry is accepted, in either order', async () => {
    const secret = newSecret();
    const body = encoder.encode('[{"id":"e1"}]');
    const good = await signAuditPush(secret, 'msg_1', NOW, body);
    const bad = await signAuditPush(newSecret(), 'msg_1', NOW, body);
    for (const signature of [`${bad} ${good}`, `${good} ${bad}`, `v1,garbage ${good}`]) {
      const check = await verifyAuditPush({
        body,
        headers: headersOf('msg_1', NOW, signature),
        secrets: [secret],
        now,
      });
      expect(check).toEqual({ ok: true, check: 'standard-webhooks', id: 'msg_1', timestamp: NOW });
    }
  });

  it('pushes signed by the old or the new secret are accepted while both are listed', async () => {
    const [oldSecret, newOne] = [newSecret(24), newSecret(64)];
    for (const signer of [oldSecret, newOne]) {
      const push = await signed(signer, encoder.encode('{"id":"e1"}'));
      expect(await verifyAuditPush({ ...push, secrets: [newOne, oldSecret], now })).toMatchObject({
        ok: true,
      });
    }
  });
});

describe('header names are case-insensitive, in a Fetch Headers or a Node header record', () => {
  it('accepts Headers, mixed-case names and repeated signature lines', async () => {
    const secret = newSecret();
    const body = encoder.encode('{}');
    const good = await signAuditPush(secret, 'msg_1', NOW, body);
    const bad = await signAuditPush(newSecret(), 'msg_1', NOW, body);
    const fetchHeaders = new Headers({ 'Webhook-Id': 'msg_1', 'WEBHOOK-TIMESTAMP': String(NOW) });
    fetchHeaders.append('Webhook-Signature', bad);
    fetchHeaders.append('Webhook-Signature', good);
    const record = {
      'Webhook-Id': 'msg_1',
      'Webhook-Timestamp': String(NOW),
      'Webhook-Signature': [bad, good],
    };
    for (const headers of [fetchHeaders, record]) {
      expect(await verifyAuditPush({ body, headers, secrets: [secret], now })).toMatchObject({ ok: true });
    }
  });

  it('refuses two webhook-id lines', async () => {
    const secret = newSecret();
    const push = await signed(secret, encoder.encode('{}'));
    const headers = { ...push.headers, 'webhook-id': ['msg_1', 'msg_2'] };
    expect(await verifyAuditPush({ body: push.body, headers, secrets: [secret], now })).toEqual({
      ok: false,
      reason: 'several webhook-id headers',
    });
  });
});

describe('a bearer secret is the other check, and the result says which one passed', () => {
  const body = encoder.encode('{}');

  it('Authorization: Bearer with any listed secret passes as bearer', async () => {
    for (const authorization of ['Bearer tok-2', 'bearer tok-2']) {
      expect(
        await verifyAuditPush({
          body,
          headers: { Authorization: authorization },
          secrets: [],
          bearer: ['tok-1', 'tok-2'],
        }),
      ).toEqual({ ok: true, check: 'bearer' });
    }
  });

  it('a wrong, longer, shorter or non-bearer credential is refused', async () => {
    const verify = (authorization: string) =>
      verifyAuditPush({ body, headers: { authorization }, secrets: [], bearer: ['tok-1'] });
    for (const wrong of ['Bearer tok-2', 'Bearer tok-1x', 'Bearer tok']) {
      expect(await verify(wrong)).toEqual({ ok: false, reason: 'bearer secret does not match' });
    }
    expect(await verify('Basic dG9rLTE=')).toEqual({
      ok: false,
      reason: 'Authorization is not one Bearer credential',
    });
    expect(await verifyAuditPush({ body, headers: {}, secrets: [], bearer: ['tok-1'] })).toEqual({
      ok: false,
      reason: 'no Authorization header',
    });
  });

  it('a signed push is judged by its signature even when a bearer secret would match', async () => {
    const secret = newSecret();
    const push = await signed(newSecret(), body);
    const headers = { ...push.headers, authorization: 'Bearer tok-1' };
    expect(await verifyAuditPush({ body, headers, secrets: [secret], bearer: ['tok-1'], now })).toEqual({
      ok: false,
      reason: 'no signature matches',
    });
    expect(await verifyAuditPush({ body, headers: {}, secrets: [secret], bearer: ['tok-1'], now })).toEqual({
      ok: false,
      reason: 'no webhook-signature or Authorization header',
    });
  });
});

describe('a malformed secret is a configuration error at the call, naming no secret', () => {
  const body = encoder.encode('{}');

  it.each([
    ['no whsec_ prefix', Buffer.alloc(32, 1).toString('base64')],
    ['not Base64', 'whsec_not base64!'],
    ['nothing after the prefix', 'whsec_'],
    ['a wrong padding', 'whsec_AAAAA='],
  ])('%s', async (_, secret) => {
    const error = await verifyAuditPush({ body, headers: {}, secrets: [newSecret(), secret] }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: 'config' });
    expect(error.message).toContain('secret 2 of 2');
    if (secret.length > 6) expect(error.message).not.toContain(secret.slice(6));
    await expect(signAuditPush(secret, 'msg_1', NOW, body)).rejects.toMatchObject({ code: 'config' });
  });

  it('no secret at all, an empty bearer secret, a negative tolerance', async () => {
    const cases = [
      { body, headers: {}, secrets: [] },
      { body, headers: {}, secrets: [], bearer: [''] },
      { body, headers: {}, secrets: [newSecret()], toleranceSeconds: -1 },
    ];
    for (const input of cases) await expect(verifyAuditPush(input)).rejects.toMatchObject({ code: 'config' });
  });
});
