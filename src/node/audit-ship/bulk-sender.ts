import { SvcError } from '../../core/errors/error-classes.js';
import { redact } from '../../core/redact.js';
import { parseRetryAfter } from '../../core/retry.js';
import { fill, inBodies, inHalves, type Send, sliceBytes } from './bodies.js';
import { type BulkAnswer, BulkAnswerSchema, BulkFailureSchema, BulkSummarySchema } from './bulk-answer.js';
import { post, shortText } from './request.js';
import { docBytes, type ItemOutcome, type SenderSettings, type ShipDoc, type ShipSender } from './sender.js';

/**
 * Elasticsearch's and OpenSearch's `_bulk` API as a {@link ShipSender}: each document a `create`
 * with `_id` = the event's id (so a document sent twice is a 409, "already there", never a copy;
 * `create` is also what a data stream takes). Documents go in bodies of at most `maxBatchBytes`;
 * a body answered 413 is split in two until it fits, and one document that alone does not fit is
 * refused for good. Items answered 429 or 5xx, and whole requests answered 429, 502, 503 or 504
 * or not answered at all, come back as `retry`; items refused with another 4xx as `dead` with the
 * error's type and reason. Any other answer throws: 401/403 (credentials), 404 (not a cluster),
 * an answer that is not `_bulk`'s.
 */
export function bulkSender(settings: SenderSettings, index: string): ShipSender {
  return new BulkSender(settings, index);
}

const action = (doc: ShipDoc) => `{"create":{"_id":${JSON.stringify(doc.id)}}}\n`;

class BulkSender implements ShipSender {
  requests = 0;
  private readonly path: string;
  // Bodies are encoded into one buffer, reused from request to request (sent one at a time): the
  // documents of a request never become one more string on the heap. A request that got no
  // answer may still be writing it, so the next one takes a new buffer.
  private buffer: Buffer | undefined;

  constructor(
    private readonly settings: SenderSettings,
    index: string,
  ) {
    this.path = `/${encodeURIComponent(index)}/_bulk`;
  }

  async send(docs: readonly ShipDoc[], signal: AbortSignal | undefined): Promise<ItemOutcome[]> {
    const sizes = docs.map((doc) => Buffer.byteLength(action(doc), 'utf8') + docBytes(doc) + 1);
    const out: ItemOutcome[] = new Array(docs.length);
    const send: Send = (from, to) => this.sendSlice(docs, sizes, from, to, out, signal, send);
    await inBodies(sizes, this.settings.maxBatchBytes, send);
    return out;
  }

  /** One body: sent, or cut in two when it is too large (here or at the destination). */
  private async sendSlice(
    docs: readonly ShipDoc[],
    sizes: readonly number[],
    from: number,
    to: number,
    out: ItemOutcome[],
    signal: AbortSignal | undefined,
    send: Send,
  ): Promise<void> {
    const bytes = sliceBytes(sizes, from, to);
    const max = this.settings.maxBatchBytes;
    if (bytes > max) {
      if (to - from > 1) return inHalves(from, to, send);
      out[from] = {
        kind: 'dead',
        status: 413,
        reason: `larger than the largest request body (${max} bytes) with its action line`,
      };
      return;
    }
    this.requests += 1;
    const body = this.encode(docs, from, to, bytes);
    const exchange = await post(
      this.settings,
      this.path,
      body,
      { 'content-type': 'application/x-ndjson' },
      signal,
    );
    if ('unanswered' in exchange) {
      this.buffer = undefined;
      return fill(out, from, to, { kind: 'retry', reason: exchange.unanswered });
    }
    const { status, headers, body: answer } = exchange.answer;
    if (status === 413) {
      if (to - from > 1) return inHalves(from, to, send);
      out[from] = { kind: 'dead', status, reason: 'larger than the destination takes in one request (413)' };
      return;
    }
    if (status === 429 || status === 502 || status === 503 || status === 504) {
      const retryAfterMs = parseRetryAfter(headers['retry-after']);
      return fill(out, from, to, {
        kind: 'retry',
        reason: `${status} ${failureReason(answer)}`,
        retryAfterMs,
      });
    }
    if (status !== 200) throw refused(this.settings.base, status, answer);
    itemOutcomes(this.settings.base, answer, to - from, out, from);
  }

  /** The body of documents `from` to `to` (their action and source lines) in the shared buffer. */
  private encode(docs: readonly ShipDoc[], from: number, to: number, bytes: number): Buffer {
    // Sized for the body at hand with room to grow (a quarter more), not for the largest allowed.
    if (!this.buffer || this.buffer.length < bytes) this.buffer = Buffer.allocUnsafe(Math.ceil(bytes * 1.25));
    const buffer = this.buffer;
    let at = 0;
    for (let i = from; i < to; i += 1) {
      const doc = docs[i] as ShipDoc;
      at += buffer.write(action(doc), at, 'utf8');
      if (typeof doc.json === 'string') at += buffer.write(doc.json, at, 'utf8');
      else at += doc.json.copy(buffer, at);
      buffer[at] = 0x0a;
      at += 1;
    }
    return buffer.subarray(0, at);
  }
}

/** A 200 answer's items as outcomes, into `out` from `at`; one that is not `_bulk`'s, or of another length, throws. */
function itemOutcomes(base: string, body: string, count: number, out: ItemOutcome[], at: number): void {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw notBulk(base, 'not JSON');
  }
  // Without failures only the count is needed: every item was created.
  const summary = BulkSummarySchema().safeParse(json);
  if (!summary.success) throw notBulk(base, 'not a _bulk answer');
  if (summary.data.items.length !== count)
    throw notBulk(base, `${summary.data.items.length} items for ${count} documents`);
  if (!summary.data.errors) {
    fill(out, at, at + count, { kind: 'created' });
    return;
  }
  const parsed = BulkAnswerSchema().safeParse(json);
  if (!parsed.success) throw notBulk(base, 'an item is not a _bulk item');
  parsed.data.items.forEach((item, k) => {
    out[at + k] = itemOutcome(item);
  });
}

function itemOutcome(item: BulkAnswer['items'][number]): ItemOutcome {
  const result = Object.values(item)[0];
  if (!result) return { kind: 'dead', status: 0, reason: 'an empty item in the answer' };
  const { status } = result;
  if (status >= 200 && status < 300) return { kind: 'created' };
  if (status === 409) return { kind: 'already' };
  const reason = errorText(result.error) || `status ${status}`;
  if (status === 429 || status >= 500) return { kind: 'retry', reason: `${status} ${reason}` };
  return { kind: 'dead', status, reason };
}

function errorText(
  error: { type?: string | undefined; reason?: string | null | undefined } | string | undefined,
): string {
  if (error === undefined) return '';
  if (typeof error === 'string') return shortText(redact(error));
  return shortText(redact([error.type, error.reason].filter(Boolean).join(': ')));
}

/** The reason of an answer that is not 200, from its `error`, else its text. */
function failureReason(body: string): string {
  try {
    const parsed = BulkFailureSchema().safeParse(JSON.parse(body));
    if (parsed.success && parsed.data.error !== undefined) return errorText(parsed.data.error);
  } catch {
    // Not JSON: its text.
  }
  return shortText(redact(body));
}

function refused(base: string, status: number, body: string): SvcError {
  const reason = failureReason(body);
  const why = reason ? `: ${reason}` : '';
  if (status === 401 || status === 403)
    return new SvcError(`${base} refused the credentials (${status}${why})`, 'ship_auth');
  if (status === 404)
    return new SvcError(
      `${base} has no _bulk API at that path (404${why}): is it the cluster's URL?`,
      'ship_refused',
    );
  return new SvcError(`${base} refused the _bulk request (${status}${why})`, 'ship_refused');
}

function notBulk(base: string, what: string): SvcError {
  return new SvcError(
    `${base} answered _bulk with ${what}: is it an Elasticsearch or OpenSearch cluster?`,
    'ship_malformed',
  );
}
