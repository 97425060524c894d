import { describe, expect, it } from 'vitest';
import { HttpProblem } from '../../src/server/problem.js';
import { Router } from '../../src/server/router.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();

describe('an unknown path is 404 and a known path with another method is 405, as problem+json', () => {
  it('404 for an unknown path', async () => {
    const res = await rawRequest(server().url, 'GET', '/no/such/path');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    expect(res.body).toMatchObject({
      status: 404,
      title: 'Not Found',
      detail: 'No route for GET /no/such/path',
    });
  });

  it('405 for a wrong method, before authentication', async () => {
    const res = await rawRequest(server().url, 'DELETE', '/taxvalidation/v1/validations');
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({ status: 405, title: expect.any(String) });
  });

  it('each response gets its own Request-Id', async () => {
    const a = await rawRequest(server().url, 'GET', '/x');
    const b = await rawRequest(server().url, 'GET', '/x');
    expect(a.headers.get('request-id')).not.toBe(b.headers.get('request-id'));
  });
});

describe('routes match method and pattern, with decoded parameters', () => {
  const router = new Router();
  const handle = () => undefined;
  router.add(
    { method: 'GET', pattern: '/items/:itemId', handle },
    { method: 'DELETE', pattern: '/items/:itemId', handle },
    { method: 'POST', pattern: '/items', handle },
  );

  it('extracts and decodes parameters; a trailing slash is accepted', () => {
    expect(router.match('GET', '/items/a%20b').params).toEqual({ itemId: 'a b' });
    expect(router.match('DELETE', '/items/x/').route.method).toBe('DELETE');
  });

  it('keeps a malformed escape as it came', () => {
    expect(router.match('GET', '/items/%E0%A4%A').params).toEqual({ itemId: '%E0%A4%A' });
  });

  it('a parameter never spans a slash', () => {
    expect(() => router.match('GET', '/items/a/b')).toThrow(HttpProblem);
  });

  it('404 and 405 as HttpProblem', () => {
    const status = (method: string, path: string) => {
      try {
        router.match(method, path);
      } catch (error) {
        return (error as HttpProblem).status;
      }
      return 200;
    };
    expect(status('GET', '/nope')).toBe(404);
    expect(status('PUT', '/items/1')).toBe(405);
    expect(status('GET', '/items')).toBe(405);
  });
});
