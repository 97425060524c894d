import { parseAuditPush } from '../../audit/push/body.js';
import type { PushHeaders } from '../../audit/push/headers.js';
import { verifyAuditPush } from '../../audit/push/signature.js';
import { spoolable, spoolBytes } from '../audit-push/spool.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import type { PushReport } from './options.js';
import { type Claim, type KeyedEvent, keyed, type PushedIds } from './pushed-ids.js';
import type { SpoolView } from './spool-view.js';

/** What one push is checked with. */
export interface AcceptSettings {
  store: ArchiveStore;
  ids: PushedIds;
  view: SpoolView;
  secrets: readonly string[];
  bearer: readonly string[];
  toleranceSeconds: number;
  maxBodyBytes: number;
  now: () => number;
}

/** The answer to a push: its status, a JSON body, and the report for the log. */
export interface PushAnswer {
  status: number;
  body: Record<string, unknown>;
  report: PushReport;
  /** Seconds a sender should wait before it tries again (a 503). */
  retryAfter?: number;
  /** Newest `occurredAt` spooled, ms. */
  newestMs?: number;
}

const refused = (status: number, reason: string, extra: Partial<PushReport> = {}): PushAnswer => ({
  status,
  body: { error: reason },
  report: { status, events: 0, spooled: 0, duplicates: 0, reason, ...extra },
});

/**
 * One pushed request: its signature (or bearer secret) checked over the body as sent, the body
 * read (one object, an array or NDJSON, plain or gzip, at most `maxBodyBytes` once inflated), the
 * events the archive does not hold written as one spool object, and only then a 200. A sender's
 * test delivery (a probe) is answered 200 and writes nothing. A store that fails is a 503 with
 * `Retry-After`: nothing was acknowledged, so the sender sends it again.
 */
export async function acceptPush(
  settings: AcceptSettings,
  body: Uint8Array,
  headers: PushHeaders & Record<string, string | string[] | undefined>,
): Promise<PushAnswer> {
  let check: PushReport['check'] = 'none';
  let webhookId: string | undefined;
  if (settings.secrets.length > 0 || settings.bearer.length > 0) {
    const verified = await verifyAuditPush({
      body,
      headers,
      secrets: settings.secrets,
      bearer: settings.bearer,
      toleranceSeconds: settings.toleranceSeconds,
      now: settings.now,
    });
    if (!verified.ok) return refused(401, verified.reason);
    check = verified.check;
    webhookId = verified.id;
  }
  const known = { check, ...(webhookId !== undefined && { webhookId }) };
  const read = await readEvents(settings, body, headers);
  if ('refusal' in read) {
    if (read.refusal === 'probe') {
      const report = { status: 200, events: 0, spooled: 0, duplicates: 0, ...known };
      return { status: 200, body: { probe: true }, report };
    }
    return refused(read.refusal.status, read.refusal.reason, known);
  }
  return spoolPush(settings, read.events, known);
}

/**
 * The claimed events of a push written as one spool object, then the 200. The events (their
 * lines and ids: some half a megabyte a batch) are let go once the object's bytes are made, before
 * the write is awaited: held across an fsync, a busy receiver's pushes outlived young-generation
 * collections and were promoted, and its heap grew with the number of pushes in flight.
 */
async function spoolPush(
  settings: AcceptSettings,
  events: readonly KeyedEvent[],
  known: Pick<PushReport, 'check' | 'webhookId'>,
): Promise<PushAnswer> {
  // A listing that fails is no reason to refuse: the write below meets the same store and says so.
  await settings.view.refreshIfDue().catch(() => {});
  const claim = await settings.ids.claim(events);
  const counts = { events: events.length, spooled: claim.fresh.length, duplicates: claim.duplicates };
  let newestMs: number | undefined;
  for (const event of claim.fresh) if (newestMs === undefined || event.occ > newestMs) newestMs = event.occ;
  // Salted: a retry after a write killed half way must not meet that write's temporary file.
  const salt = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString('hex');
  const spool = claim.fresh.length > 0 ? spoolBytes(claim.fresh, salt) : undefined;
  return written(settings, spool, claim.settle, counts, known, newestMs);
}

/** Writes a push's spool object (none when every event was a duplicate) and answers. */
async function written(
  settings: AcceptSettings,
  spool: { name: string; bytes: Buffer } | undefined,
  settle: Claim['settle'],
  counts: { events: number; spooled: number; duplicates: number },
  known: Pick<PushReport, 'check' | 'webhookId'>,
  newestMs: number | undefined,
): Promise<PushAnswer> {
  try {
    if (spool) {
      await settings.store.create(spool.name, spool.bytes);
      settings.view.wrote(spool.name, counts.spooled);
    }
    settle(true);
  } catch (error) {
    settle(false);
    const reason = `the archive could not be written: ${(error as Error).message}`;
    return { ...refused(503, reason, { ...known, events: counts.events }), retryAfter: 5 };
  }
  const report: PushReport = {
    status: 200,
    ...known,
    ...counts,
    ...(spool && { object: spool.name }),
  };
  return {
    status: 200,
    body: { received: counts.events, spooled: counts.spooled, duplicates: counts.duplicates },
    report,
    ...(newestMs !== undefined && { newestMs }),
  };
}

/**
 * The body's events with their keys, or why not. Apart from {@link acceptPush} so the parsed
 * events (a tree of objects each) are garbage before the write's awaits: held across an fsync,
 * they outlive young-generation collections and grow the heap of a busy receiver.
 */
async function readEvents(
  settings: AcceptSettings,
  body: Uint8Array,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ events: KeyedEvent[] } | { refusal: 'probe' | { status: number; reason: string } }> {
  const parsed = await parseAuditPush(body, {
    contentType: single(headers['content-type']),
    contentEncoding: single(headers['content-encoding']),
    maxBytes: settings.maxBodyBytes,
  });
  if (!parsed.ok) return { refusal: parsed };
  if (parsed.probe) return { refusal: 'probe' };
  const events: KeyedEvent[] = [];
  for (const [i, event] of parsed.events.entries()) {
    const occ = Date.parse(event.occurredAt);
    if (!spoolable(occ))
      return {
        refusal: { status: 400, reason: `event ${i + 1}: occurredAt is not a timestamp from 1970 on` },
      };
    events.push(keyed({ line: parsed.lines[i] as string, id: event.id, occ }));
  }
  return { events };
}

const single = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(', ') : value;
