import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseAuditPush } from '../../src/audit/push/body.js';
import { pushChallengeAnswer } from '../../src/audit/push/challenge.js';
import { SvcError } from '../../src/core/errors/error-classes.js';

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);
const event = (i: number) => ({
  id: `evt-${i}`,
  schemaVersion: 2,
  occurredAt: new Date(1_760_000_000_000 + i * 1000).toISOString(),
  type: 'platform.user.updated',
  actor: { type: 'SYSTEM' },
});
const MIB = 1024 * 1024;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a push is one JSON object, a JSON array or NDJSON, and each event keeps its JSON text', () => {
  it('a single object: the body is the line', async () => {
    const text = ` ${JSON.stringify(event(1), null, 2)}\n`;
    expect(await parseAuditPush(bytes(text), { contentType: 'application/json' })).toEqual({
      ok: true,
      events: [event(1)],
      lines: [text.trim()],
      form: 'single',
      gzip: false,
      probe: false,
    });
  });

  it('an array: each element, stringified', async () => {
    const events = [event(1), event(2), event(3)];
    const parsed = await parseAuditPush(bytes(JSON.stringify(events, null, 1)), {
      contentType: 'application/json',
    });
    expect(parsed).toEqual({
      ok: true,
      events,
      lines: events.map((e) => JSON.stringify(e)),
      form: 'array',
      gzip: false,
      probe: false,
    });
    expect(await parseAuditPush(bytes('[]'))).toMatchObject({ ok: true, events: [], form: 'array' });
  });

  it('NDJSON: each line as received, CRLF or LF, blank lines skipped, with or without the content type', async () => {
    const lines = [event(1), event(2)].map((e) => JSON.stringify(e));
    const spaced = `  ${JSON.stringify(event(3))}`;
    const text = `${lines[0]}\r\n\n${lines[1]}\n${spaced}\n`;
    for (const contentType of ['application/x-ndjson; charset=utf-8', 'application/json', undefined]) {
      expect(await parseAuditPush(bytes(text), { contentType })).toEqual({
        ok: true,
        events: [event(1), event(2), event(3)],
        lines: [...lines, spaced],
        form: 'ndjson',
        gzip: false,
        probe: false,
      });
    }
  });

  it('random events come back as sent, in each form', async () => {
    const eventArb = fc.record({
      id: fc.string({ minLength: 1 }),
      occurredAt: fc.string(),
      type: fc.string({ unit: 'binary' }),
      details: fc.dictionary(fc.string(), fc.jsonValue()),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 20 }), async (events) => {
        const expected = JSON.parse(JSON.stringify(events));
        const ndjson = expected.map((e: unknown) => JSON.stringify(e)).join('\n');
        const array = await parseAuditPush(bytes(JSON.stringify(events)));
        const lines = await parseAuditPush(bytes(ndjson), { contentType: 'application/x-ndjson' });
        expect(array).toMatchObject({ ok: true, events: expected, form: 'array' });
        expect(lines).toMatchObject({
          ok: true,
          events: expected,
          lines: ndjson.split('\n'),
          form: 'ndjson',
        });
      }),
      { numRuns: 50 },
    );
  });
});

describe('gzip is inflated when the content encoding says so or the body opens with 1f 8b', () => {
  it('each form, declared or not', async () => {
    const ndjson = [event(1), event(2)].map((e) => JSON.stringify(e)).join('\n');
    for (const contentEncoding of ['gzip', 'X-Gzip', undefined]) {
      expect(await parseAuditPush(gzipSync(ndjson), { contentEncoding })).toMatchObject({
        ok: true,
        events: [event(1), event(2)],
        form: 'ndjson',
        gzip: true,
      });
      expect(await parseAuditPush(gzipSync(JSON.stringify(event(1))), { contentEncoding })).toMatchObject({
        ok: true,
        form: 'single',
        gzip: true,
      });
    }
  });

  it('corrupt or cut gzip is a 400; another content coding is a 415', async () => {
    const zipped = gzipSync(JSON.stringify(event(1)));
    const corrupt = Uint8Array.from(zipped);
    corrupt[12] = (corrupt[12] as number) ^ 0xff;
    for (const body of [corrupt, zipped.subarray(0, zipped.length - 6)]) {
      expect(await parseAuditPush(body)).toEqual({
        ok: false,
        status: 400,
        reason: 'the gzip body is corrupt or cut short',
      });
    }
    expect(await parseAuditPush(bytes('{}'), { contentEncoding: 'gzip' })).toMatchObject({ status: 400 });
    expect(await parseAuditPush(zipped, { contentEncoding: 'br' })).toMatchObject({ ok: false, status: 415 });
  });
});

describe('the size cap counts inflated bytes, and inflating stops at it', () => {
  it('a gzip bomb (1 MiB inflating to 1 GiB) is a 413 after about 10 MiB inflated', async () => {
    // 64 gzip members of 16 MiB of zeros each: a 1 GiB stream from 1 MiB of input.
    const member = gzipSync(Buffer.alloc(16 * MIB), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 64 }, () => member));
    const Real = globalThis.DecompressionStream;
    let inflated = 0;
    class CountingDecompressionStream {
      readonly writable: WritableStream<Uint8Array>;
      readonly readable: ReadableStream<Uint8Array>;
      constructor(format: ConstructorParameters<typeof DecompressionStream>[0]) {
        const real = new Real(format);
        this.writable = real.writable;
        this.readable = real.readable.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              inflated += chunk.length;
              controller.enqueue(chunk);
            },
          }),
        );
      }
    }
    vi.stubGlobal('DecompressionStream', CountingDecompressionStream);
    expect(await parseAuditPush(bomb, { contentEncoding: 'gzip' })).toEqual({
      ok: false,
      status: 413,
      reason: 'larger than 10485760 bytes once inflated',
    });
    expect(inflated).toBeGreaterThan(10 * MIB);
    expect(inflated).toBeLessThan(12 * MIB);
  });

  it('plain bodies are capped too, and maxBytes moves the cap', async () => {
    const body = bytes(JSON.stringify([event(1), event(2)]));
    expect(await parseAuditPush(body, { maxBytes: body.length })).toMatchObject({ ok: true });
    expect(await parseAuditPush(body, { maxBytes: body.length - 1 })).toEqual({
      ok: false,
      status: 413,
      reason: `larger than ${body.length - 1} bytes`,
    });
    expect(await parseAuditPush(gzipSync(body), { maxBytes: body.length - 1 })).toMatchObject({
      status: 413,
    });
    await expect(parseAuditPush(body, { maxBytes: 0 })).rejects.toBeInstanceOf(SvcError);
  });
});

describe('a malformed body is a 400 naming where', () => {
  it.each([
    ['an empty body', '', 'empty body'],
    ['only whitespace', ' \n\r\n ', 'empty body'],
    ['an NDJSON line that is not JSON', `${JSON.stringify(event(1))}\n\n{"id":`, /^line 3 is not JSON/],
    [
      'an NDJSON line that is an array',
      `${JSON.stringify(event(1))}\n[1]`,
      'line 2 is not an audit event (not a JSON object)',
    ],
    ['an array that is not JSON', '[{"id":"a",}]', /^the body is not JSON/],
    ['a single object that is not JSON', '{"id": "a", oops}', /^the body is not JSON/],
    [
      'an array item without an id',
      JSON.stringify([event(1), { occurredAt: 'x' }]),
      'item 2 is not an audit event (no string "id")',
    ],
    [
      'an event whose id is a number',
      JSON.stringify({ ...event(1), id: 7 }),
      'the body is not an audit event (no string "id")',
    ],
    [
      'an NDJSON event without occurredAt',
      `${JSON.stringify(event(1))}\n{"id":"b"}`,
      'line 2 is not an audit event (no string "occurredAt")',
    ],
    ['a JSON string', '"evt"', 'the body is not a JSON object, array or NDJSON'],
  ])('%s', async (_, text, reason) => {
    const parsed = await parseAuditPush(bytes(text));
    expect(parsed).toMatchObject({ ok: false, status: 400 });
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('bytes that are not UTF-8', async () => {
    expect(await parseAuditPush(Uint8Array.of(0x7b, 0xff, 0x7d))).toEqual({
      ok: false,
      status: 400,
      reason: 'the body is not UTF-8',
    });
  });
});

describe('senders\' handshakes: a {"test": true} object is a probe, Okta\'s challenge is answered', () => {
  it('a single object with test true and no id is a probe with no events', async () => {
    for (const body of [bytes('{"test": true}'), gzipSync('{"test":true,"sentAt":"now"}')]) {
      expect(await parseAuditPush(body)).toMatchObject({ ok: true, events: [], lines: [], probe: true });
    }
  });

  it('anything else that looks like a test is judged as an event', async () => {
    expect(await parseAuditPush(bytes('{"test": "yes"}'))).toMatchObject({ ok: false, status: 400 });
    expect(await parseAuditPush(bytes('[{"test": true}]'))).toMatchObject({ ok: false, status: 400 });
    expect(await parseAuditPush(bytes(JSON.stringify({ ...event(1), test: true })))).toMatchObject({
      ok: true,
      events: [{ ...event(1), test: true }],
      probe: false,
    });
  });

  it('pushChallengeAnswer echoes X-Okta-Verification-Challenge as {"verification": ...}', () => {
    const value = 'X8uTkvs_0ch5KUFMqhbRR8HGI6dNLk1ZxWnqU9ax';
    for (const headers of [
      new Headers({ 'X-Okta-Verification-Challenge': value }),
      { 'x-okta-verification-challenge': value },
    ]) {
      expect(JSON.parse(pushChallengeAnswer(headers)!)).toEqual({ verification: value });
    }
    expect(pushChallengeAnswer({ 'x-okta-verification-challenge': 'a"b\\' })).toBe(
      '{"verification":"a\\"b\\\\"}',
    );
  });

  it('no challenge, an empty one, two, or one over 1024 characters is not answered', () => {
    for (const challenge of [undefined, '', ['a', 'b'], 'x'.repeat(1025)]) {
      expect(pushChallengeAnswer({ 'x-okta-verification-challenge': challenge })).toBeUndefined();
    }
  });
});

describe('an Okta event hook envelope: an object without id whose data.events is an array is read as those events', () => {
  const envelope = (events: unknown) => ({
    eventType: 'com.okta.event_hook',
    eventTypeVersion: '1.0',
    cloudEventsVersion: '0.1',
    source: 'https://example.okta.com/api/v1/eventHooks/who1',
    eventId: 'b5a188b9-5ece-4636-b041-482ffda96311',
    eventTime: '2026-03-01T12:00:00.000Z',
    contentType: 'application/json',
    data: { events },
  });

  it('each element is an event, its line JSON.stringify of it, plain or gzip', async () => {
    const events = [event(1), event(2)];
    const text = JSON.stringify(envelope(events), null, 2);
    expect(await parseAuditPush(bytes(text), { contentType: 'application/json' })).toEqual({
      ok: true,
      events,
      lines: events.map((e) => JSON.stringify(e)),
      form: 'envelope',
      gzip: false,
      probe: false,
    });
    expect(await parseAuditPush(gzipSync(text))).toMatchObject({
      ok: true,
      events,
      form: 'envelope',
      gzip: true,
      probe: false,
    });
  });

  it('an empty data.events is zero events, not a probe', async () => {
    expect(await parseAuditPush(bytes(JSON.stringify(envelope([]))))).toEqual({
      ok: true,
      events: [],
      lines: [],
      form: 'envelope',
      gzip: false,
      probe: false,
    });
  });

  it('an element that is not an event is a 400 naming its position', async () => {
    const body = bytes(JSON.stringify(envelope([event(1), { occurredAt: 'x' }])));
    expect(await parseAuditPush(body)).toEqual({
      ok: false,
      status: 400,
      reason: 'data.events item 2 is not an audit event (no string "id")',
    });
    expect(await parseAuditPush(bytes(JSON.stringify(envelope([7]))))).toMatchObject({
      reason: 'data.events item 1 is not an audit event (not a JSON object)',
    });
  });

  it('data.events that is not an array is a 400 saying so', async () => {
    for (const events of [{ 0: event(1) }, 'evt', null]) {
      expect(await parseAuditPush(bytes(JSON.stringify(envelope(events))))).toEqual({
        ok: false,
        status: 400,
        reason: "the body's data.events is not an array",
      });
    }
  });

  it('an ordinary event is still single, even with a data.events of its own; an object without data.events is judged as an event', async () => {
    const withData = { ...event(1), data: { events: [event(2)] } };
    expect(await parseAuditPush(bytes(JSON.stringify(withData)))).toMatchObject({
      ok: true,
      events: [withData],
      form: 'single',
    });
    expect(await parseAuditPush(bytes(JSON.stringify(event(1))))).toMatchObject({ form: 'single' });
    expect(await parseAuditPush(bytes('{"data": {"items": []}}'))).toEqual({
      ok: false,
      status: 400,
      reason: 'the body is not an audit event (no string "id")',
    });
  });
});

describe('a Cloudflare Logpush test delivery: the object {"content":"tests"} and nothing else is a probe', () => {
  it('gzip, as Cloudflare sends it, or plain, is a probe with no events', async () => {
    for (const body of [gzipSync('{"content":"tests"}'), bytes(' {"content": "tests"}\n')]) {
      expect(await parseAuditPush(body)).toMatchObject({ ok: true, events: [], lines: [], probe: true });
    }
    expect(await parseAuditPush(gzipSync('{"content":"tests"}'), { contentEncoding: 'gzip' })).toMatchObject({
      probe: true,
      gzip: true,
    });
  });

  it('another content, another member beside it, or the object in an array is judged as an event', async () => {
    for (const text of [
      '{"content":"test"}',
      '{"content":"tests","id":"a"}',
      '{"content":"tests","occurredAt":"2026-03-01T00:00:00Z"}',
      '[{"content":"tests"}]',
    ]) {
      expect(await parseAuditPush(bytes(text))).toMatchObject({ ok: false, status: 400 });
    }
    const tagged = { ...event(1), content: 'tests' };
    expect(await parseAuditPush(bytes(JSON.stringify(tagged)))).toMatchObject({
      ok: true,
      events: [tagged],
      probe: false,
    });
  });
});

describe('NDJSON labelled as such is read line by line from the bytes, with the rules the text path has', () => {
  const ndjson = { contentType: 'application/x-ndjson' };
  const two = [event(1), event(2)].map((e) => JSON.stringify(e));

  it('gives the same events and lines as the same body read as text (CRLF, blank lines, a leading BOM)', async () => {
    const text = `\uFEFF${two[0]}\r\n\n  \n${two[1]}\r\n`;
    const asBytes = await parseAuditPush(bytes(text), ndjson);
    const asText = await parseAuditPush(bytes(text), { contentType: 'application/json' });
    expect(asBytes).toMatchObject({ ok: true, form: 'ndjson', lines: two });
    if (asBytes.ok && asText.ok) expect(asBytes.events).toEqual(asText.events);
    expect(asText).toMatchObject({ ok: true, form: 'ndjson', lines: two });
  });

  it('refuses bytes that are not UTF-8 on a later line, an empty body, and a bad line by its number', async () => {
    const bad = Uint8Array.from([...bytes(`${two[0]}\n`), 0x7b, 0xff, 0x7d, 0x0a]);
    expect(await parseAuditPush(bad, ndjson)).toEqual({
      ok: false,
      status: 400,
      reason: 'the body is not UTF-8',
    });
    expect(await parseAuditPush(bytes(' \r\n\n'), ndjson)).toEqual({
      ok: false,
      status: 400,
      reason: 'empty body',
    });
    const broken = await parseAuditPush(bytes(`${two[0]}\n\n{"id":\n`), ndjson);
    expect(broken).toMatchObject({ ok: false, status: 400 });
    if (!broken.ok) expect(broken.reason).toMatch(/^line 3 is not JSON/);
  });
});
