import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/tax/batch/sha256.js';

const hexOf = (words: Int32Array) =>
  Array.from(words, (w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
const reference = (text: string) => createHash('sha256').update(text).digest('hex');

describe("the batch keys' SHA-256 is FIPS 180-4's, of the text's UTF-8 bytes", () => {
  it("gives the standard's test vectors", () => {
    expect(hexOf(sha256(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hexOf(sha256('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hexOf(sha256('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(hexOf(sha256('a'.repeat(1_000_000)))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('matches node:crypto at every padding boundary and for any text (accents, emoji, lone surrogates)', () => {
    for (let n = 0; n <= 130; n++) expect(hexOf(sha256('x'.repeat(n)))).toBe(reference('x'.repeat(n)));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(hexOf(sha256(text))).toBe(reference(text));
      }),
      { numRuns: 500 },
    );
  });
});
