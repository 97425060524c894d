import { randomUUID } from 'node:crypto';
import { SvcError } from '../../core/errors/error-classes.js';
import { redact } from '../../core/redact.js';
import { type BackoffOptions, backoffDelay, parseRetryAfter } from '../../core/retry.js';
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
  const channel = randomUUID();
  const channelHeaders: Record<string, string> = hec.ack ? { 'x-splunk-request-channel': channel } : {};
  const head = `{"sourcetype":${JSON.stringify(hec.sourcetype)}${hec.index === null ? '' : `,"index":${JSON.stringify(hec.index)}`}`;
  const eventText = (doc: ShipDoc) =>
    `${head},"time":${(Date.parse(doc.occurredAt) / 1000).toFixed(3)},"event":${docText(doc)}}\n`;
  let requests = 0;
  /** Requests answered with an ackId, waiting for it: the slice of the call's documents they hold. */
  let pending: Array<{ ackId: number; from: number; to: number }> = [];

  async function sendSlice(
    texts: readonly string[],
    sizes: readonly number[],
    from: number,
    to: number,
    out: ItemOutcome[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    let bytes = 0;
    for (let i = from; i < to; i += 1) bytes += sizes[i] as number;
    const split = async () => {
      const middle = from + Math.ceil((to - from) / 2);
      await sendSlice(texts, sizes, from, middle, out, signal);
      await sendSlice(texts, sizes, middle, to, out, signal);
    };
    if (bytes > settings.maxBatchBytes && to - from > 1) return split();
    if (bytes > settings.maxBatchBytes) {
      out[from] = {
        kind: 'dead',
        status: 413,
        reason: `larger than the largest request body (${settings.maxBatchBytes} bytes)`,
      };
      return;
    }
    requests += 1;
    const exchange = await post(
      settings,
      '/services/collector/event',
      texts.slice(from, to).join(''),
      {
        'content-type': 'application/json',
        ...channelHeaders,
      },
      signal,
    );
    if ('unanswered' in exchange) return fill(out, from, to, { kind: 'retry', reason: exchange.unanswered });
    const { status, headers, body } = exchange.answer;
    const answer = parseAnswer(body);
    if (status === 413) {
      if (to - from > 1) return split();
      out[from] = { kind: 'dead', status, reason: 'larger than the HEC takes in one request (413)' };
      return;
    }
    if (status === 429 || status >= 500) {
      const retryAfterMs = parseRetryAfter(headers['retry-after']);
      return fill(out, from, to, {
        kind: 'retry',
        reason: `${status} ${describe(answer, body)}`,
        retryAfterMs,
      });
    }
    if (status === 400 && answer?.code === HEC_INCORRECT_INDEX)
      throw new SvcError(
        `${settings.base} refused the index ${hec.index ?? "(the token's default)"}: the token may not write to it (${describe(answer, body)})`,
        'ship_refused',
      );
    if (status === 400 && answer?.['invalid-event-number'] !== undefined) {
      const bad = from + answer['invalid-event-number'];
      if (bad >= from && bad < to) {
        // Whether HEC kept the events before the invalid one is not documented: all the others
        // are sent again, which may store some twice but never loses one.
        fill(out, from, to, { kind: 'retry', reason: 'in a request with an invalid event' });
        out[bad] = { kind: 'dead', status, reason: describe(answer, body) };
        return;
      }
    }
    if (status === 401 || status === 403)
      throw new SvcError(
        `${settings.base} refused the HEC token (${status} ${describe(answer, body)})`,
        'ship_auth',
      );
    if (status !== 200 || !answer || answer.code !== 0)
      throw new SvcError(
        `${settings.base} refused the events (${status} ${describe(answer, body)})`,
        'ship_refused',
      );
    if (!hec.ack) return fill(out, from, to, { kind: 'created' });
    if (answer.ackId === undefined)
      throw new SvcError(
        `${settings.base} gave no ackId: indexer acknowledgement is off for this token (turn it on, or ship without --ack)`,
        'ship_refused',
      );
    pending.push({ ackId: answer.ackId, from, to });
  }

  /** Waits for the acknowledgements of `pending`; what is not acknowledged in time is to be sent again. */
  async function settleAcks(out: ItemOutcome[], signal: AbortSignal | undefined): Promise<void> {
    const timeoutMs = hec.ackTimeoutMs ?? ACK_TIMEOUT_MS;
    let waited = 0;
    let polls = 0;
    while (pending.length > 0) {
      requests += 1;
      const exchange = await post(
        settings,
        `/services/collector/ack?channel=${encodeURIComponent(channel)}`,
        JSON.stringify({ acks: pending.map((p) => p.ackId) }),
        { 'content-type': 'application/json', ...channelHeaders },
        signal,
      );
      if ('answer' in exchange && exchange.answer.status === 200) {
        const acks = parseAcks(exchange.answer.body);
        if (!acks)
          throw new SvcError(
            `${settings.base} answered the acknowledgement query with something else`,
            'ship_malformed',
          );
        pending = pending.filter((p) => {
          if (acks[String(p.ackId)] !== true) return true;
          fill(out, p.from, p.to, { kind: 'created' });
          return false;
        });
      } else if ('answer' in exchange && (exchange.answer.status === 401 || exchange.answer.status === 403)) {
        throw new SvcError(`${settings.base} refused the HEC token (${exchange.answer.status})`, 'ship_auth');
      }
      if (pending.length === 0) break;
      polls += 1;
      const delay = backoffDelay(polls, undefined, {
        ...hec.backoff,
        random: hec.backoff?.random ?? (() => 1),
      });
      if (waited + delay > timeoutMs) break;
      waited += delay;
      await hec.sleep(delay, signal);
    }
    for (const p of pending)
      fill(out, p.from, p.to, { kind: 'retry', reason: `not acknowledged in ${timeoutMs} ms` });
    pending = [];
  }

  return {
    get requests() {
      return requests;
    },
    async send(docs, signal) {
      const texts = docs.map(eventText);
      const sizes = texts.map((text) => Buffer.byteLength(text, 'utf8'));
      const out: ItemOutcome[] = new Array(docs.length);
      let start = 0;
      while (start < docs.length) {
        let end = start;
        let bytes = 0;
        while (
          end < docs.length &&
          (end === start || bytes + (sizes[end] as number) <= settings.maxBatchBytes)
        ) {
          bytes += sizes[end] as number;
          end += 1;
        }
        await sendSlice(texts, sizes, start, end, out, signal);
        start = end;
      }
      if (hec.ack) await settleAcks(out, signal);
      return out;
    },
  };
}

function fill(out: ItemOutcome[], from: number, to: number, outcome: ItemOutcome): void {
  for (let i = from; i < to; i += 1) out[i] = outcome;
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
