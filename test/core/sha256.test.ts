import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { provideSha256, sha256Hexes } from '../../src/core/sha256.js';
import { useNodePlatform } from '../../src/node/platform.js';
import { idempotencyKeys } from '../../src/tax/batch/keys.js';

const nodeHex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

afterEach(() => useNodePlatform());

describe('batch keys digest with the platform: node:crypto where the Node build provides it, Web Crypto elsewhere, the same bytes', () => {
  it('the FIPS 180-4 examples, through each', async () => {
    const texts = ['', 'abc', 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'];
    const expected = [
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ];
    expect(await sha256Hexes(texts)).toEqual(expected);
    provideSha256(undefined);
    expect(await sha256Hexes(texts)).toEqual(expected);
  });

  it('any text, Web Crypto agrees with node:crypto (UTF-8 of every code point, lone surrogates as U+FFFD)', async () => {
    provideSha256(undefined);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'binary' }), { maxLength: 8 }), async (texts) => {
        expect(await sha256Hexes(texts)).toEqual(texts.map(nodeHex));
      }),
      { numRuns: 200 },
    );
  });

  it('a row key is the same whichever digest made it', async () => {
    const text = 'run-1\n7\n{"countryCode":"DE","rawValue":"136695976"}';
    const viaNode = await idempotencyKeys([text]);
    provideSha256(undefined);
    expect(await idempotencyKeys([text])).toEqual(viaNode);
    expect(viaNode[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
