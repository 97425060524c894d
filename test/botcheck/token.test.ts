import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VerificationTokenPayloadSchema } from '../../src/botcheck/schemas.js';
import { TEST_VERIFICATION_IDS } from '../../src/botcheck/test-ids.js';
import {
  decodeVerificationToken,
  encodeVerificationToken,
  MAX_TOKEN_LENGTH,
  resolveVerificationId,
} from '../../src/botcheck/token.js';
import { TokenDecodeError, type TokenDecodeReason } from '../../src/core/errors/error-classes.js';

const ID = '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5f';

function reasonOf(token: string): TokenDecodeReason | 'OK' {
  try {
    decodeVerificationToken(token);
    return 'OK';
  } catch (error) {
    if (error instanceof TokenDecodeError) return error.reason;
    throw error;
  }
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('verification token: Base64 of a JSON object (standard or URL-safe, padding optional)', () => {
  // Chosen so the standard encoding contains '+' and '/' and needs padding.
  const payload = { verificationId: ID, apiEndpoint: 'https://x.invalid/?a=>>>??', n: 1 };
  const standard = b64(JSON.stringify(payload));

  it('decodes standard Base64 with padding', () => {
    expect(standard).toMatch(/[+/]/);
    expect(standard).toMatch(/=$/);
    expect(decodeVerificationToken(standard).verificationId).toBe(ID);
  });

  it('decodes standard Base64 without padding', () => {
    expect(decodeVerificationToken(standard.replace(/=+$/, '')).verificationId).toBe(ID);
  });

  it('decodes URL-safe Base64 with and without padding', () => {
    const urlSafe = standard.replace(/\+/g, '-').replace(/\//g, '_');
    expect(decodeVerificationToken(urlSafe).verificationId).toBe(ID);
    expect(decodeVerificationToken(urlSafe.replace(/=+$/, '')).verificationId).toBe(ID);
  });

  it('ignores surrounding white space (a pasted token, a trailing newline)', () => {
    expect(decodeVerificationToken(`  ${standard}\n`).verificationId).toBe(ID);
  });

  it('rejects mixed alphabets, bad characters and impossible lengths as NOT_BASE64', () => {
    expect(reasonOf('ab+c-d==')).toBe('NOT_BASE64');
    expect(reasonOf('abc!def')).toBe('NOT_BASE64');
    expect(reasonOf('abcde')).toBe('NOT_BASE64');
    // Well-formed Base64 gets past this step and fails later.
    expect(reasonOf('abc=')).toBe('NOT_JSON');
    expect(reasonOf('ab=')).toBe('NOT_BASE64');
    expect(reasonOf('a===')).toBe('NOT_BASE64');
  });

  it('round-trips through encodeVerificationToken', () => {
    const token = encodeVerificationToken({ verificationId: ID, encryptedAccessToken: 'secret' });
    expect(decodeVerificationToken(token)).toEqual({
      verificationId: ID,
      apiEndpoint: undefined,
      encryptedAccessToken: 'secret',
    });
  });
});

describe('verification token: at most 4 KiB, checked before decoding', () => {
  it('accepts a token of exactly 4096 characters', () => {
    const base = { verificationId: ID, pad: '' };
    const overhead = b64(JSON.stringify(base)).length;
    // Every 3 bytes of padding add 4 characters.
    const pad = 'x'.repeat(((MAX_TOKEN_LENGTH - overhead) / 4) * 3);
    const token = b64(JSON.stringify({ ...base, pad }));
    expect(token.length).toBe(MAX_TOKEN_LENGTH);
    expect(reasonOf(token)).toBe('OK');
  });

  it('rejects 4097 characters, and a 1 MB token, as TOO_LONG without looking at the content', () => {
    expect(reasonOf('A'.repeat(MAX_TOKEN_LENGTH + 1))).toBe('TOO_LONG');
    // Not Base64 at all: the length check comes first.
    expect(reasonOf('!'.repeat(1024 * 1024))).toBe('TOO_LONG');
  });
});

describe('verification token: JSON object with a verificationId of 8-4-4-4-12 hex digits', () => {
  it.each(Object.entries(TEST_VERIFICATION_IDS))(
    'accepts the test id %s (%s), which is not an RFC 4122 UUID',
    (_, id) => {
      expect(decodeVerificationToken(encodeVerificationToken({ verificationId: id })).verificationId).toBe(
        id,
      );
    },
  );

  it('accepts upper-case hex', () => {
    expect(reasonOf(encodeVerificationToken({ verificationId: ID.toUpperCase() }))).toBe('OK');
  });

  it.each([
    ['EMPTY', ''],
    ['EMPTY', '   \n'],
    ['NOT_JSON', b64('not json')],
    ['NOT_JSON', Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('base64')],
    ['NOT_OBJECT', b64('[1,2]')],
    ['NOT_OBJECT', b64('"a string"')],
    ['NOT_OBJECT', b64('null')],
    ['MISSING_ID', b64('{}')],
    ['MISSING_ID', b64('{"verificationId":null}')],
    ['MISSING_ID', b64('{"apiEndpoint":"https://x.invalid"}')],
    ['BAD_ID', b64('{"verificationId":42}')],
    ['BAD_ID', b64('{"verificationId":"not-a-uuid"}')],
    ['BAD_ID', b64(`{"verificationId":"${ID}0"}`)],
    ['BAD_ID', b64(`{"verificationId":"${ID.replace(/-/g, '')}"}`)],
    ['BAD_ID', b64(`{"verificationId":"${ID.replace('3', 'g')}"}`)],
  ] as const)('%s: %j', (reason, token) => {
    expect(reasonOf(token)).toBe(reason);
  });

  it('says precisely what is wrong, without echoing the secret fields', () => {
    const token = encodeVerificationToken({ verificationId: 'nope', encryptedAccessToken: 'TOPSECRET' });
    expect(() => decodeVerificationToken(token)).toThrow(/verificationId "nope" is not 8-4-4-4-12/);
    try {
      decodeVerificationToken(token);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('TOPSECRET');
      expect((error as TokenDecodeError).code).toBe('token_bad_id');
    }
  });

  it('ignores unknown keys and keeps deprecated fields only when they are strings', () => {
    const token = encodeVerificationToken({ verificationId: ID, apiEndpoint: 7, extra: { a: 1 } });
    expect(decodeVerificationToken(token)).toEqual({
      verificationId: ID,
      apiEndpoint: undefined,
      encryptedAccessToken: undefined,
    });
    expect(Object.keys(decodeVerificationToken(token))).not.toContain('extra');
  });
});

describe('resolveVerificationId: an id is taken as is, anything else is decoded as a token', () => {
  it('takes ids and tokens', () => {
    expect(resolveVerificationId(ID)).toBe(ID);
    expect(resolveVerificationId(` ${ID} `)).toBe(ID);
    expect(resolveVerificationId(encodeVerificationToken({ verificationId: ID }))).toBe(ID);
  });

  it('throws TokenDecodeError for anything else', () => {
    expect(() => resolveVerificationId('garbage!')).toThrow(TokenDecodeError);
    expect(() => resolveVerificationId(undefined as unknown as string)).toThrow(TokenDecodeError);
  });
});

describe('property: decoding any string returns a token or throws TokenDecodeError, nothing else', () => {
  const inputs = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.base64String({ maxLength: 400 }),
    fc.json().map((json) => Buffer.from(json).toString('base64')),
    fc.json().map((json) => Buffer.from(json).toString('base64url')),
    fc
      .record(
        { verificationId: fc.oneof(fc.uuid(), fc.string(), fc.constant(null)), more: fc.anything() },
        { requiredKeys: [] },
      )
      .map((o) => encodeVerificationToken(o as Record<string, unknown>)),
    fc.string({ minLength: 4090, maxLength: 4200 }),
  );

  it('holds', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        try {
          const token = decodeVerificationToken(input);
          expect(token.verificationId).toMatch(
            /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
          );
        } catch (error) {
          expect(error).toBeInstanceOf(TokenDecodeError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the token decoder applies the VerificationTokenPayload schema without loading zod', () => {
  // decodeVerificationToken checks the payload by hand (decoding runs on every verify and must not
  // load zod); the schema stays the one definition of the wire object (OpenAPI, server). Both must
  // agree on any payload that names an id.
  const idLike = fc.oneof(
    fc.uuid(),
    fc.uuid().map((id) => id.toUpperCase()),
    fc.stringMatching(/^[0-9a-fA-FgG-]{30,40}$/),
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.array(fc.string(), { maxLength: 2 }),
    fc.object({ maxDepth: 1 }),
  );
  const field = fc.oneof(fc.constant(undefined), fc.string(), fc.integer(), fc.constant(null));

  it('accepts exactly what the schema accepts, with the same fields', () => {
    fc.assert(
      fc.property(idLike, field, field, (verificationId, apiEndpoint, encryptedAccessToken) => {
        fc.pre(verificationId !== '');
        const payload = { verificationId, apiEndpoint, encryptedAccessToken };
        const schema = VerificationTokenPayloadSchema().safeParse({
          verificationId,
          apiEndpoint: typeof apiEndpoint === 'string' ? apiEndpoint : undefined,
          encryptedAccessToken: typeof encryptedAccessToken === 'string' ? encryptedAccessToken : undefined,
        });
        let decoded: unknown;
        try {
          decoded = decodeVerificationToken(encodeVerificationToken(payload));
        } catch (error) {
          expect(error).toBeInstanceOf(TokenDecodeError);
          expect((error as TokenDecodeError).reason).toBe('BAD_ID');
          expect(schema.success).toBe(false);
          return;
        }
        expect(schema.success).toBe(true);
        expect(decoded).toEqual(schema.data);
      }),
      { numRuns: 500 },
    );
  });

  it('(control) both refuse an id with a non-hex digit and accept a test id', () => {
    const bad = { verificationId: '3f2b8c1e-5d4a-4b6c-9e8f-0a1b2c3d4e5g' };
    expect(VerificationTokenPayloadSchema().safeParse(bad).success).toBe(false);
    expect(reasonOf(encodeVerificationToken(bad))).toBe('BAD_ID');
    const good = { verificationId: TEST_VERIFICATION_IDS.passed };
    expect(VerificationTokenPayloadSchema().safeParse(good).success).toBe(true);
    expect(reasonOf(encodeVerificationToken(good))).toBe('OK');
  });
});
