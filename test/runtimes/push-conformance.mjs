// The push receiver's conformance checks (the `svc-sdk/push` entry), run the same way in every
// runtime (Node, Deno, Bun, workerd, edge-runtime). Plain ESM on Web APIs only: no Node built-in,
// no test framework. It reports what it observed (ok, status, reason, check, event ids, form, gzip,
// probe); test/runtimes/push-conformance.test.ts holds the expectations. Every signature and gzip
// body comes from the test process (standardwebhooks, node:zlib), so nothing here checks itself.

import { runChecks } from './run-checks.mjs';

/**
 * @typedef {{ body: string, headers: Record<string, string> }} SignedPush A text body and the
 *   Standard Webhooks headers the test signed it with.
 * @typedef {object} PushConformanceConfig
 * @property {number} nowMs The clock handed to verifyAuditPush.
 * @property {string} secret The `whsec_` secret the pushes are signed with.
 * @property {string} otherSecret Another `whsec_` secret, that signed nothing.
 * @property {SignedPush} signed Signed at nowMs.
 * @property {SignedPush} stale Signed 6 minutes before nowMs.
 * @property {string} bearer A bearer secret.
 * @property {Record<string, string>} bodies Gzip bodies in Base64: gzipNdjson (three events),
 *   gzipProbe, gzipAtLimit, gzipOverLimit, gzipBomb, and gzipNdjson cut: gzipCutShort (at half),
 *   gzipNoTrailer (without its last 8 bytes), gzipTrailingJunk (4 bytes more).
 * @property {number} limit The maxBytes for gzipOverLimit (inflates to more) and gzipAtLimit (to exactly this).
 * @property {object[]} events Audit events, for the array, envelope and bearer bodies.
 * @property {string} challenge An Okta verification challenge.
 */

const encoder = new TextEncoder();
const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** What a check says, with the fields that did not come left out. */
const checked = (check) => ({
  ok: check.ok,
  ...(check.ok ? { check: check.check, id: check.id, timestamp: check.timestamp } : { reason: check.reason }),
});

/** What a parsed body says: its events by id, not their contents. */
const parsed = (body) =>
  body.ok
    ? {
        ok: true,
        form: body.form,
        gzip: body.gzip,
        probe: body.probe,
        ids: body.events.map((event) => event.id),
        lines: body.lines.length,
      }
    : { ok: false, status: body.status, reason: body.reason };

/** The signed body with its byte at the middle changed. */
function tampered(text) {
  const bytes = encoder.encode(text);
  const at = bytes.length >> 1;
  bytes[at] = bytes[at] ^ 0x01;
  return bytes;
}

/**
 * Runs every check; never throws (a check that throws is reported with its error).
 * @param {any} lib The `svc-sdk/push` entry.
 * @param {PushConformanceConfig} config
 */
export async function runPushConformance(lib, config) {
  const now = () => config.nowMs;
  const verify = (push, secrets, body = encoder.encode(push.body)) =>
    lib.verifyAuditPush({ body, headers: push.headers, secrets, now });
  const parse = (name, options) => lib.parseAuditPush(fromBase64(config.bodies[name]), options);
  const text = (value) => encoder.encode(JSON.stringify(value));
  const events = config.events;

  const checks = {
    // What the runtime offers, so that a gzip refusal can be told from a broken inflate.
    runtime: async () => ({ decompressionStream: typeof DecompressionStream === 'function' }),
    signed: async () => checked(await verify(config.signed, [config.secret])),
    signedWebHeaders: async () =>
      checked(
        await lib.verifyAuditPush({
          body: encoder.encode(config.signed.body),
          headers: new Headers(config.signed.headers),
          secrets: [config.secret],
          now,
        }),
      ),
    oneByteChanged: async () =>
      checked(await verify(config.signed, [config.secret], tampered(config.signed.body))),
    sixMinutesOff: async () => checked(await verify(config.stale, [config.secret])),
    secretRemoved: async () => checked(await verify(config.signed, [config.otherSecret])),
    rotation: async () => checked(await verify(config.signed, [config.otherSecret, config.secret])),
    signsAsStandardWebhooks: async () => {
      const { headers, body } = config.signed;
      const signature = await lib.signAuditPush(
        config.secret,
        headers['webhook-id'],
        Number(headers['webhook-timestamp']),
        body,
      );
      return { same: signature === headers['webhook-signature'] };
    },
    bearer: async () =>
      checked(
        await lib.verifyAuditPush({
          body: text(events),
          headers: new Headers({ authorization: `Bearer ${config.bearer}` }),
          secrets: [],
          bearer: [config.bearer],
        }),
      ),
    bearerWrong: async () =>
      checked(
        await lib.verifyAuditPush({
          body: text(events),
          headers: { authorization: `Bearer not-${config.bearer}` },
          secrets: [],
          bearer: [config.bearer],
        }),
      ),
    gzipNdjson: async () =>
      parsed(await parse('gzipNdjson', { contentType: 'application/x-ndjson', contentEncoding: 'gzip' })),
    // No Content-Encoding and a JSON content type: found by gzip's magic bytes, NDJSON by its layout.
    gzipSniffed: async () => parsed(await parse('gzipNdjson', { contentType: 'application/json' })),
    array: async () => parsed(await lib.parseAuditPush(text(events), { contentType: 'application/json' })),
    oktaEnvelope: async () =>
      parsed(
        await lib.parseAuditPush(text({ eventType: 'com.okta.event_hook', data: { events } }), {
          contentType: 'application/json',
        }),
      ),
    cloudflareProbe: async () =>
      parsed(await parse('gzipProbe', { contentType: 'application/json', contentEncoding: 'gzip' })),
    overLimit: async () =>
      parsed(await parse('gzipOverLimit', { contentEncoding: 'gzip', maxBytes: config.limit })),
    atLimit: async () =>
      parsed(await parse('gzipAtLimit', { contentEncoding: 'gzip', maxBytes: config.limit })),
    // 16 MiB of spaces against the default cap of 10 MiB.
    gzipBomb: async () => parsed(await parse('gzipBomb', { contentEncoding: 'gzip' })),
    gzipCutShort: async () => parsed(await parse('gzipCutShort', { contentEncoding: 'gzip' })),
    gzipNoTrailer: async () => parsed(await parse('gzipNoTrailer', { contentEncoding: 'gzip' })),
    gzipTrailingJunk: async () => parsed(await parse('gzipTrailingJunk', { contentEncoding: 'gzip' })),
    malformedNdjson: async () =>
      parsed(
        await lib.parseAuditPush(encoder.encode(`${JSON.stringify(events[0])}\n{"id": "evt_2",\n`), {
          contentType: 'application/x-ndjson',
        }),
      ),
    // The position comes from the engine's JSON.parse message, when it gives one.
    malformedJson: async () =>
      parsed(
        await lib.parseAuditPush(encoder.encode('{"id": "evt_1", }'), { contentType: 'application/json' }),
      ),
    notAnEvent: async () =>
      parsed(
        await lib.parseAuditPush(text([events[0], { id: 'evt_2' }]), { contentType: 'application/json' }),
      ),
    challenge: async () => ({
      record: lib.pushChallengeAnswer({ 'X-Okta-Verification-Challenge': config.challenge }) ?? null,
      webHeaders:
        lib.pushChallengeAnswer(new Headers({ 'x-okta-verification-challenge': config.challenge })) ?? null,
      none: lib.pushChallengeAnswer(new Headers()) ?? null,
    }),
  };
  return runChecks(checks);
}
