import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorDetail, parseErrorBody } from '../../src/core/error-body.js';

const MAX_DETAIL = 300;

describe('error bodies of any shape are parsed leniently', () => {
  it('parses JSON, keeps other text raw, and gives undefined for an empty body', () => {
    expect(parseErrorBody('{"detail":"x"}')).toEqual({ detail: 'x' });
    expect(parseErrorBody('[1,2]')).toEqual([1, 2]);
    expect(parseErrorBody('Service Unavailable')).toBe('Service Unavailable');
    expect(parseErrorBody('{"truncated":')).toBe('{"truncated":');
    expect(parseErrorBody('')).toBeUndefined();
  });
});

describe('the message comes from detail, message, error or title, in that order', () => {
  it('takes the first non-empty string field', () => {
    expect(errorDetail({ title: 't', error: 'e', message: 'm', detail: 'd' })).toBe('d');
    expect(errorDetail({ title: 't', error: 'e', message: 'm' })).toBe('m');
    expect(errorDetail({ title: 't', error: 'e' })).toBe('e');
    expect(errorDetail({ title: 't' })).toBe('t');
    expect(errorDetail({ detail: '   ', title: 't' })).toBe('t');
  });

  it('reads a nested error object', () => {
    expect(errorDetail({ error: { message: 'quota exceeded', code: 42 } })).toBe('quota exceeded');
    expect(errorDetail({ error: { code: 42 }, title: 'Too Many Requests' })).toBe('Too Many Requests');
  });

  it('gives undefined when nothing readable is there', () => {
    for (const body of [undefined, null, 42, true, [], ['x'], {}, { detail: 7 }, { other: 'x' }]) {
      expect(errorDetail(body)).toBeUndefined();
    }
  });
});

describe('raw text is kept, HTML is ignored, long text is bounded to one line', () => {
  it('keeps a short text body', () => {
    expect(errorDetail('upstream connect error')).toBe('upstream connect error');
  });

  it('ignores an HTML error page', () => {
    expect(errorDetail('<!DOCTYPE html><html><body>502 Bad Gateway</body></html>')).toBeUndefined();
    expect(errorDetail('  \n<html>oops</html>')).toBeUndefined();
  });

  it('folds white space and cuts at 300 characters with an ellipsis', () => {
    expect(errorDetail({ detail: 'line one\n\tline two  ' })).toBe('line one line two');
    const long = errorDetail('x'.repeat(5000));
    expect(long).toHaveLength(MAX_DETAIL);
    expect(long?.endsWith('...')).toBe(true);
  });
});

describe('property: parsing never throws and the detail is a bounded single line', () => {
  const check = (detail: string | undefined) => {
    if (detail === undefined) return;
    expect(typeof detail).toBe('string');
    expect(detail.length).toBeGreaterThan(0);
    expect(detail.length).toBeLessThanOrEqual(MAX_DETAIL);
    expect(detail).not.toMatch(/[\r\n]/);
  };

  it('any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        check(errorDetail(parseErrorBody(JSON.stringify(value) ?? '')));
        check(errorDetail(value));
      }),
    );
  });

  it('any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ maxLength: 1000 })),
        (text) => {
          check(errorDetail(parseErrorBody(text)));
        },
      ),
    );
  });

  it('objects with message-like fields of any type', () => {
    const field = fc.oneof(fc.string(), fc.jsonValue(), fc.constant(undefined));
    fc.assert(
      fc.property(fc.record({ detail: field, message: field, error: field, title: field }), (body) => {
        check(errorDetail(parseErrorBody(JSON.stringify(body))));
      }),
    );
  });

  it('a deeply nested error body does not throw', () => {
    // A hostile or broken server can nest `error` objects; JSON.parse accepts this depth.
    const depth = 20_000;
    const text = `${'{"error":'.repeat(depth)}"deep"${'}'.repeat(depth)}`;
    const body = parseErrorBody(text);
    expect(() => check(errorDetail(body))).not.toThrow();
  });
});
