import { randomUUID } from 'node:crypto';
import { SvcError } from '../../core/errors/error-classes.js';
import { redact } from '../../core/redact.js';
import { type BackoffOptions, backoffDelay, parseRetryAfter } from '../../core/retry.js';
import { fill, inBodies, inHalves, type Send, sliceBytes } from './bodies.js';
import { HecAcksSchema, type HecAnswer, HecAnswerSchema } from './hec-answer.js';
import { post, shortText } from './request.js';
import { docText, type ItemOutcome, type SenderSettings, type ShipDoc, type ShipSender } from './sender.js';

/** What a HEC sender needs besides the common settings. */
export interface HecSettings {
  /** The Splunk index of every event, or null for the token's default. */
  index: string | null;
  sourcetype: string;
  /** Indexer acknowledgement: a request's events count only once HEC acknowledges them. */
  ack: boolean;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  backoff?: BackoffOptions;
  /** How long acknowledgements are waited for before the events are sent again, ms. Default 120000. */
  ackTimeoutMs?: number;
}

/** How long acknowledgements are waited for when `ackTimeoutMs` is not given, ms; polls wait 0.5 s doubling to 8 s between them. */
const ACK_TIMEOUT_MS = 120_000;

/** HEC's code for an index the token may not write to: every event of the run would be refused. */
const HEC_INCORRECT_INDEX = 7;

/**
 * Splunk's HTTP Event Collector as a {@link ShipSender}: events go to `/services/collector/event`
 * with `Authorization: Splunk TOKEN`, each `{"time", "sourcetype", "index"?, "event"}` with `time`
 * the event's `occurredAt` in epoch seconds, in bodies of at most `maxBatchBytes` (a 413 splits a
 * body in two). A 503 ("server is busy", code 9), a 429, a 5xx or no answer sends the body again;
 * a 400 that names an invalid event refuses that one for good and sends the others again (HEC
 * does not document whether it kept those before it: sent again, they may be stored twice, but
 * none is lost). With `ack`, every request carries this run's channel, and its
 * events count as created only once `/services/collector/ack` says its `ackId` is indexed; those
 * not acknowledged within the ack timeout are sent again (which may store them twice: HEC has no
 * ids to refuse a second copy by).
 */
export function hecSender(settings: SenderSettings, hec: HecSettings): ShipSender {
  return new HecSender(settings, hec);
}

/** A request answered with an ackId, waiting for it: the slice of the round's documents it holds. */
interface PendingAck {
  ackId: number;
  from: number;
  to: number;
}

class HecSender implements ShipSender {
  requests = 0;
  private readonly channel = randomUUID();
  private readonly channelHeaders: Record<string, string>;
  /** Each event's fields before its time: the same for every event of the run. */
  private readonly head: string;
  private pending: PendingAck[] = [];

  constructor(
    private readonly settings: SenderSettings,
    private readonly hec: HecSettings,
  ) {
    this.channelHeaders = hec.ack ? { 'x-splunk-request-channel': this.channel } : {};
    const index = hec.index === null ? '' : `,"index":${JSON.stringify(hec.index)}`;
    this.head = `{"sourcetype":${JSON.stringify(hec.sourcetype)}${index}`;
  }

  async send(docs: readonly ShipDoc[], signal: AbortSignal | undefined): Promise<ItemOutcome[]> {
    const texts = docs.map(
      (doc) =>
        `${this.head},"time":${(Date.parse(doc.occurredAt) / 1000).toFixed(3)},"event":${docText(doc)}}\n`,
    );
    const sizes = texts.map((text) => Buffer.byteLength(text, 'utf8'));
    const out: ItemOutcome[] = new Array(docs.length);
    const send: Send = (from, to) => this.sendSlice(texts, sizes, from, to, out, signal, send);
    await inBodies(sizes, this.settings.maxBatchBytes, send);
    if (this.hec.ack) await this.settleAcks(out, signal);
    return out;
  }

  /** One body: sent, or cut in two when it is too large (here or at the HEC). */
  private async sendSlice(
    texts: readonly string[],
    sizes: readonly number[],
    from: number,
    to: number,
    out: ItemOutcome[],
    signal: AbortSignal | undefined,
    send: Send,
  ): Promise<void> {
    const max = this.settings.maxBatchBytes;
    if (sliceBytes(sizes, from, to) > max) {
      if (to - from > 1) return inHalves(from, to, send);
      out[from] = {
        kind: 'dead',
        status: 413,
        reason: `larger than the largest request body (${max} bytes)`,
      };
      return;
    }
    this.requests += 1;
    const body = texts.slice(from, to).join('');
    const headers = { 'content-type': 'application/json', ...this.channelHeaders };
    const exchange = await post(this.settings, '/services/collector/event', body, headers, signal);
    if ('unanswered' in exchange) return fill(out, from, to, { kind: 'retry', reason: exchange.unanswered });
    const { status, headers: answerHeaders, body: text } = exchange.answer;
    const answer = parseAnswer(text);
    if (status === 413) {
      if (to - from > 1) return inHalves(from, to, send);
      out[from] = { kind: 'dead', status, reason: 'larger than the HEC takes in one request (413)' };
      return;
    }
    if (status === 429 || status >= 500) {
      const retryAfterMs = parseRetryAfter(answerHeaders['retry-after']);
      return fill(out, from, to, {
        kind: 'retry',
        reason: `${status} ${describe(answer, text)}`,
        retryAfterMs,
      });
    }
    if (status === 400 && this.invalidEvent(answer, text, from, to, out)) return;
    if (status === 401 || status === 403)
      throw new SvcError(
        `${this.settings.base} refused the HEC token (${status} ${describe(answer, text)})`,
        'ship_auth',
      );
    if (status !== 200 || !answer || answer.code !== 0)
      throw new SvcError(
        `${this.settings.base} refused the events (${status} ${describe(answer, text)})`,
        'ship_refused',
      );
    if (!this.hec.ack) return fill(out, from, to, { kind: 'created' });
    if (answer.ackId === undefined)
      throw new SvcError(
        `${this.settings.base} gave no ackId: indexer acknowledgement is off for this token (turn it on, or ship without --ack)`,
        'ship_refused',
      );
    this.pending.push({ ackId: answer.ackId, from, to });
  }

  /**
   * A 400 naming an invalid event: that one refused for good, the others of the body sent again
   * (whether HEC kept those before it is not documented: sent again, they may be stored twice,
   * but none is lost). An index the token may not write to refuses every event: the run stops.
   * False for a 400 that names no event of the body.
   */
  private invalidEvent(
    answer: HecAnswer | undefined,
    text: string,
    from: number,
    to: number,
    out: ItemOutcome[],
  ): boolean {
    if (answer?.code === HEC_INCORRECT_INDEX)
      throw new SvcError(
        `${this.settings.base} refused the index ${this.hec.index ?? "(the token's default)"}: the token may not write to it (${describe(answer, text)})`,
        'ship_refused',
      );
    const number = answer?.['invalid-event-number'];
    if (number === undefined || from + number >= to || number < 0) return false;
    fill(out, from, to, { kind: 'retry', reason: 'in a request with an invalid event' });
    out[from + number] = { kind: 'dead', status: 400, reason: describe(answer, text) };
    return true;
  }

  /** Waits for the acknowledgements of the pending requests; those not acknowledged in time are sent again. */
  private async settleAcks(out: ItemOutcome[], signal: AbortSignal | undefined): Promise<void> {
    const timeoutMs = this.hec.ackTimeoutMs ?? ACK_TIMEOUT_MS;
    let waited = 0;
    for (let polls = 1; this.pending.length > 0; polls += 1) {
      await this.queryAcks(out, signal);
      if (this.pending.length === 0) break;
      const delay = backoffDelay(polls, undefined, {
        ...this.hec.backoff,
        random: this.hec.backoff?.random ?? (() => 1),
      });
      if (waited + delay > timeoutMs) break;
      waited += delay;
      await this.hec.sleep(delay, signal);
    }
    for (const p of this.pending)
      fill(out, p.from, p.to, { kind: 'retry', reason: `not acknowledged in ${timeoutMs} ms` });
    this.pending = [];
  }

  /** One query of the acknowledgement endpoint: the acknowledged requests' events are created. */
  private async queryAcks(out: ItemOutcome[], signal: AbortSignal | undefined): Promise<void> {
    this.requests += 1;
    const exchange = await post(
      this.settings,
      `/services/collector/ack?channel=${encodeURIComponent(this.channel)}`,
      JSON.stringify({ acks: this.pending.map((p) => p.ackId) }),
      { 'content-type': 'application/json', ...this.channelHeaders },
      signal,
    );
    if (!('answer' in exchange)) return;
    const { status, body } = exchange.answer;
    if (status === 401 || status === 403)
      throw new SvcError(`${this.settings.base} refused the HEC token (${status})`, 'ship_auth');
    if (status !== 200) return;
    const acks = parseAcks(body);
    if (!acks)
      throw new SvcError(
        `${this.settings.base} answered the acknowledgement query with something else`,
        'ship_malformed',
      );
    this.pending = this.pending.filter((p) => {
      if (acks[String(p.ackId)] !== true) return true;
      fill(out, p.from, p.to, { kind: 'created' });
      return false;
    });
  }
}

function parseAnswer(body: string): HecAnswer | undefined {
  try {
    const parsed = HecAnswerSchema().safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function parseAcks(body: string): Record<string, boolean> | undefined {
  try {
    const parsed = HecAcksSchema().safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.acks : undefined;
  } catch {
    return undefined;
  }
}

function describe(answer: HecAnswer | undefined, body: string): string {
  if (answer?.text !== undefined)
    return `${answer.text}${answer.code === undefined ? '' : ` (code ${answer.code})`}`;
  return shortText(redact(body)) || 'no text';
}
