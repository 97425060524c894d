import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUrlSplitter } from '../../src/node/transport/plain-url.js';

/** What undici's `request(url)` sends: the URL's origin, and its pathname plus search. */
function parsed(url: string): { origin: string; path: string } {
  const u = new URL(url);
  return { origin: u.origin, path: u.search ? `${u.pathname}${u.search}` : u.pathname };
}

describe('the undici transport splits a URL into origin and path exactly as URL parsing does, or leaves it to undici', () => {
  it('splits the URLs the pipeline builds, remembering the origin', () => {
    const split = createUrlSplitter();
    const url = 'http://127.0.0.1:8080/captcha/v2/verifications/00000000-0000-0000-0000-000000000000/results';
    expect(split(url)).toEqual(parsed(url));
    expect(split('http://127.0.0.1:8080/x?limit=10&cursor=a%2Bb')).toEqual({
      origin: 'http://127.0.0.1:8080',
      path: '/x?limit=10&cursor=a%2Bb',
    });
    expect(split('https://api.example.com/base/p')).toEqual(parsed('https://api.example.com/base/p'));
    expect(split('http://[::1]:9/a')).toEqual(parsed('http://[::1]:9/a'));
  });

  it('leaves to undici what URL parsing would change', () => {
    const split = createUrlSplitter();
    for (const url of [
      'HTTP://Example.com/a',
      'http://example.com:80/a',
      'http://user:pw@example.com/a',
      'http://example.com/a#frag',
      'http://example.com/a/../b',
      'http://example.com/a/%2E%2e/b',
      'http://example.com/a/./b',
      'http://example.com/a b',
      'http://example.com/a\\b',
      "http://example.com/a?q='",
      'http://example.com/a?',
      'http://example.com/%zz',
      'http://example.com',
      'not a url',
      'foo://example.com/a',
    ]) {
      expect(split(url), url).toBeUndefined();
    }
  });

  it('property: whatever the path, a split equals what URL parsing finds', () => {
    const split = createUrlSplitter();
    const chars = fc.constantFrom(
      ...'aZ09-._~!$&\'()*+,;=:@/?#%2eE \\"<>`{}^|[]\t\né'.split(''),
      '%2e',
      '%2E',
      '%41',
      '..',
      '/.',
    );
    const origins = fc.constantFrom(
      'http://127.0.0.1:8080',
      'https://api.example.com',
      'http://EXAMPLE.com:80',
    );
    fc.assert(
      fc.property(origins, fc.array(chars, { maxLength: 30 }), (origin, parts) => {
        const url = `${origin}/${parts.join('')}`;
        const got = split(url);
        if (got !== undefined) expect(got).toEqual(parsed(url));
      }),
      { numRuns: 3000 },
    );
  });
});
