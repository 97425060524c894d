/**
 * What each admin body field means, by schema id (`Faults`, `AuditStream`): the admin schemas are
 * the server's own, and their words for the admin OpenAPI document live here.
 */
export const ADMIN_FIELDS: Record<string, Record<string, string>> = {
  ClockAdvance: {
    advanceMs: 'Milliseconds to move the server clock forward',
    frozen: 'Stop (true) or resume (false) the passing of wall time',
  },
  ClockSet: {
    now: 'The new server time: epoch milliseconds or an ISO 8601 timestamp',
    frozen: 'Stop (true) or resume (false) the passing of wall time',
  },
  ClockFreeze: { frozen: 'Stop (true) or resume (false) the passing of wall time' },
  Faults: {
    rate: 'Share of API requests that fail, 0 to 1; 0 switches injection off',
    kinds: 'Kinds of failure to draw from; default all',
    seed: 'Seed of the fault sequence: the same seed and request order give the same faults; default 1',
    slowMs: 'Extra delay of a `slow` response, ms; default 2000',
  },
  RateLimit: {
    perSecond: 'API requests answered per second; 0 switches the limiter off',
    burst:
      'Requests let through at once after a quiet spell (the bucket size); default perSecond rounded up, at least 1',
    retryAfter: 'Whether a 429 carries Retry-After (whole seconds until a request would pass); default true',
  },
  CreateVerification: {
    finished: 'Whether the widget verification has finished; an unfinished one answers 423 until finished',
    passed: 'The verdict verificationPassed',
    score: 'Bot score 0 to 1; default 0.1 when passed (0 in minimal-data mode), 1 when not',
    reason: 'Legacy reason; `ONLY_PROOF_OF_WORKS` is kept as given, to exercise the alias',
    decisionType: 'How the verdict was reached (current API)',
    decisionAction: 'The recommended action (current API)',
    gatewayFailoverActive: 'Whether the failover gateway synthesized the result; default true for FAILOVER',
    minimalDataMode: 'Minimal-data mode: the request metadata fields are empty',
    maxFetches: 'How many fetches the result allows; default 1',
    validityMs: 'How long the result is retrievable after the verification finished, ms; default 15 minutes',
    mode: 'Captcha mode of the widget; the demo captcha is configured for STANDARD (another mode is 422 on the legacy API)',
  },
  ProviderMode: {
    mode: 'sync (201), async (202, completes on the next tick) or unavailable (SOURCE_UNAVAILABLE)',
  },
  WebhookEndpoint: { url: 'http(s) URL that receives every webhook event' },
  GenerateAuditEvents: {
    count: 'How many events to generate deterministically, 1 to 5,000,000',
    scope: 'Whose events: the project (default) or the agency',
    ownerId: 'Project or agency id; default `demo` or `demo-agency`',
    from: 'Start of the range the events spread over; default 24 hours before `to`',
    to: 'End of the range; default now',
  },
  AddAuditEvents: {
    events: 'The events to store as given (1 to 100,000)',
    scope: 'Whose events: the project (default) or the agency',
    ownerId: 'Project or agency id; default `demo` or `demo-agency`',
  },
  AuditStream: {
    url: 'http(s) URL that receives the pushes (POST), at most 2048 characters',
    format:
      '`single`: one event object per request; `array`: a JSON array; `ndjson` (default): one event per line',
    gzip: 'Send the body with `Content-Encoding: gzip`; the signature covers the gzip bytes as sent; default false',
    batchSize: 'Events per request, 1 to 10,000; default 100 (always 1 for `single`)',
    secret: 'Standard Webhooks secret: `whsec_` and a base64 key; signs every request',
    scope: 'Whose events: the project (default) or the agency',
    ownerId: 'Project or agency id; default `demo` or `demo-agency`',
    projectId: 'A project made with POST /__admin/projects',
    faults: 'Make the push lossy; default none',
  },
  AuditStreamFaults: {
    duplicateRate: 'Share of events sent a second time, in a later batch, 0 to 1; default 0',
    reorder: 'Shuffle the events of each recording across its batches; default false',
    dropRate: 'Share of events never pushed (the pull API still has them), 0 to 1; default 0',
    delayMs: 'Wait before each request, retries included, ms; default 0',
    seed: 'Seed of the drop, duplicate and reorder draws: the same seed and recordings give the same batches; default 1',
  },
};
