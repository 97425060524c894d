import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  LocalValidationError,
  UnprocessableEntityError,
} from '../../src/core/errors/index.js';
import { listenForWebhooks } from '../../src/node/webhooks/listen.js';
import {
  parseWebhookEvent,
  type TaxWebhookEvent,
  WebhookPayloadError,
} from '../../src/tax/webhooks/parse-event.js';
import { useTestClients } from '../helpers/client.js';
import { rawRequest, useReferenceServer } from '../helpers/server.js';

const server = useReferenceServer();
const client = useTestClients(server);

/** Collects webhook events until `count` arrived. */
async function collectEvents(count: number, act: () => Promise<void>): Promise<TaxWebhookEvent[]> {
  const events: TaxWebhookEvent[] = [];
  let done: () => void = () => {};
  const enough = new Promise<void>((resolve) => {
    done = resolve;
  });
  const listener = await listenForWebhooks({
    onEvent: (event) => {
      events.push(event);
      if (events.length >= count) done();
    },
  });
  server().admin.addWebhookEndpoint(listener.url);
  try {
    await act();
    await enough;
    await server().admin.drainWebhooks();
  } finally {
    await listener.close();
  }
  return events;
}

describe('POST /validations/batch: 202 with one PENDING entry per item, in input order', () => {
  it('accepts every item and completes each one later', async () => {
    const items = [
      { countryCode: 'DE', rawValue: '136695976', correlationId: 'row-1' },
      { countryCode: 'DE', rawValue: '136695977', correlationId: 'row-2' },
      { countryCode: 'AT', rawValue: 'ATU13585627', correlationId: 'row-3' },
    ];
    const events = await collectEvents(4, async () => {
      const accepted = await client().tax.validateBatch(items);
      expect(accepted.items.map((e) => [e.index, e.status])).toEqual([
        [0, 'PENDING'],
        [1, 'PENDING'],
        [2, 'PENDING'],
      ]);
      expect(accepted.idempotencyKeys).toHaveLength(3);
    });
    const completed = events.filter((e) => e.eventType === 'taxvalidation.validation.completed');
    const invalid = events.filter((e) => e.eventType === 'taxvalidation.validation.invalid');
    expect(completed).toHaveLength(3);
    expect(invalid).toHaveLength(1);
    expect(server().admin.stats().validationsProcessed).toBe(3);
    // Each completion joins back to its item through the fetched result.
    const c = client();
    const correlations = await Promise.all(
      completed.map(
        async (e) =>
          (await c.tax.getResult((e as { validationResultId: string }).validationResultId)).correlationId,
      ),
    );
    expect(correlations.sort()).toEqual(['row-1', 'row-2', 'row-3']);
  });

  it('a structurally invalid item refuses the whole batch with 422 naming its index; nothing is processed', async () => {
    const body = {
      items: [
        { countryCode: 'DE', rawValue: '136695976' },
        { countryCode: 'DE', rawValue: 'x'.repeat(25) },
        { countryCode: 'D1', rawValue: '136695976' },
      ],
    };
    const res = await rawRequest(server().url, 'POST', '/taxvalidation/v1/validations/batch', {
      key: 'ak_demo_project',
      body,
    });
    expect(res.status).toBe(422);
    const problem = res.body as { detail: string; errors: Array<{ path: string }> };
    expect(problem.detail).toMatch(/items 1, 2/);
    expect(problem.errors.map((e) => e.path)).toEqual(['items.1.rawValue', 'items.2.countryCode']);
    expect(server().admin.stats().validationsProcessed).toBe(0);
  });

  it('the client refuses the same batch locally', async () => {
    await expect(
      client().tax.validateBatch([
        { countryCode: 'DE', rawValue: '136695976' },
        { countryCode: 'DE', rawValue: 'x'.repeat(25) },
      ]),
    ).rejects.toBeInstanceOf(LocalValidationError);
  });

  it('replayed items (same idempotency key and body) are not processed again and report their result', async () => {
    const c = client();
    const items = [{ countryCode: 'DE', rawValue: '136695976', idempotencyKey: 'batch-row-1' }];
    await collectEvents(1, async () => {
      await c.tax.validateBatch(items);
    });
    const again = await c.tax.validateBatch(items);
    expect(again.items[0]).toMatchObject({ replay: true, status: 'PENDING' });
    expect(again.items[0]?.validationResultId).toMatch(/^valres_/);
    expect(server().admin.stats().validationsProcessed).toBe(1);
    await expect(
      c.tax.validateBatch([{ ...items[0], rawValue: '136695984' } as never]),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('a pinned provider that cannot serve an item refuses the batch with 422', async () => {
    await expect(
      client().tax.validateBatch([{ countryCode: 'NO', rawValue: '988077917', preferredProvider: 'VIES' }]),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
  });
});

describe('asynchronous processing: 202 PENDING, then the completion webhooks', () => {
  it('a provider in async mode answers 202 and fires completed (and invalid for INVALID)', async () => {
    server().admin.setProviderMode('VIES', 'async');
    const events = await collectEvents(2, async () => {
      const outcome = await client().tax.validate({ countryCode: 'DE', rawValue: '136695977' });
      expect(outcome.kind).toBe('pending');
    });
    expect(events.map((e) => e.eventType).sort()).toEqual([
      'taxvalidation.validation.completed',
      'taxvalidation.validation.invalid',
    ]);
    const completed = events[0] as {
      outcome: string;
      provider: string;
      providerStatus: string;
      validationResultId: string;
    };
    expect(completed).toMatchObject({ outcome: 'INVALID', provider: 'VIES', providerStatus: 'SUCCESS' });
    expect(completed.validationResultId).toMatch(/^valres_/);
  });

  it('an unavailable provider gives SOURCE_UNAVAILABLE (never INVALID) and asks for manual review', async () => {
    server().admin.setProviderMode('VIES', 'unavailable');
    const events = await collectEvents(2, async () => {
      const outcome = await client().tax.validate({ countryCode: 'DE', rawValue: '136695976' });
      expect(outcome.kind === 'completed' && [outcome.result.outcome, outcome.result.providerStatus]).toEqual(
        ['SOURCE_UNAVAILABLE', 'PROVIDER_ERROR'],
      );
    });
    const review = events.find((e) => e.eventType === 'taxvalidation.validation.manual-review-required');
    expect(review).toMatchObject({ known: true, validationRequestId: expect.stringMatching(/^valreq_/) });
  });
});

describe('webhook payloads are parsed into typed events', () => {
  it('parses the three documented events and keeps unknown ones as such', () => {
    const completed = parseWebhookEvent(
      JSON.stringify({
        eventType: 'taxvalidation.validation.completed',
        occurredAt: '2026-01-01T00:00:00.000Z',
        taxValidatorId: 'tv_1',
        validationResultId: 'r1',
        outcome: 'VALID',
        provider: 'VIES',
        providerStatus: 'SUCCESS',
        extra: 'kept',
      }),
    );
    expect(completed).toMatchObject({ known: true, outcome: 'VALID', extra: 'kept' });
    const review = parseWebhookEvent({
      eventType: 'taxvalidation.validation.manual-review-required',
      occurredAt: '2026-01-01T00:00:00.000Z',
      validationRequestId: 'q1',
      status: 'MANUAL_REVIEW',
    });
    expect(review.known).toBe(true);
    expect(parseWebhookEvent({ eventType: 'taxvalidation.something.new', a: 1 })).toEqual({
      eventType: 'taxvalidation.something.new',
      known: false,
      payload: { eventType: 'taxvalidation.something.new', a: 1 },
    });
  });

  it('refuses bodies that are not JSON objects with an eventType, or malformed known events', () => {
    expect(() => parseWebhookEvent('not json')).toThrow(WebhookPayloadError);
    expect(() => parseWebhookEvent('[1]')).toThrow(WebhookPayloadError);
    expect(() => parseWebhookEvent({})).toThrow(/no eventType/);
    expect(() => parseWebhookEvent({ eventType: 'taxvalidation.validation.completed' })).toThrow(
      WebhookPayloadError,
    );
  });
});

describe('the webhook listener accepts only its path token and bounds the body', () => {
  it('answers 404 elsewhere, 405 for other methods, 413 past the limit, 400 for bad payloads', async () => {
    const received: unknown[] = [];
    const listener = await listenForWebhooks({ maxBodyBytes: 1024, onEvent: (e) => void received.push(e) });
    try {
      const base = new URL(listener.url);
      const other = await fetch(`${base.origin}/not-the-token`, { method: 'POST', body: '{}' });
      expect(other.status).toBe(404);
      expect((await fetch(listener.url)).status).toBe(405);
      const big = await fetch(listener.url, { method: 'POST', body: 'x'.repeat(4096) }).catch(
        () => undefined,
      );
      expect(big === undefined || big.status === 413).toBe(true);
      expect((await fetch(listener.url, { method: 'POST', body: '{"a":1}' })).status).toBe(400);
      expect(received).toHaveLength(0);
      const ok = await fetch(listener.url, {
        method: 'POST',
        body: JSON.stringify({ eventType: 'x.y', a: 1 }),
      });
      expect(ok.status).toBe(200);
      expect(received).toHaveLength(1);
    } finally {
      await listener.close();
    }
  });
});
