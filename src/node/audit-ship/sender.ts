import type { Transport } from '../../core/transport/types.js';

// What the ship's loop (ship.ts) asks of a destination: send these documents, say what became of
// each. Elasticsearch/OpenSearch `_bulk` (bulk-sender.ts) and Splunk HEC (hec-sender.ts) answer it.

/** One event as a destination receives it. */
export interface ShipDoc {
  /** The event's id: the document's `_id`, so a replay is a conflict, not a copy. */
  readonly id: string;
  /** The event's `occurredAt` (HEC's `time`). */
  readonly occurredAt: string;
  /** The document as JSON text, or its UTF-8 bytes (`raw`: the archived line as read, never turned into a string). */
  readonly json: string | Buffer;
}

/** What became of one document of a request. */
export type ItemOutcome =
  /** Stored now. */
  | { readonly kind: 'created' }
  /** Stored by an earlier request (a 409 to `create` with its id). */
  | { readonly kind: 'already' }
  /** Refused for now (429, 5xx, the network): to be sent again; `retryAfterMs` from the answer's `Retry-After`. */
  | { readonly kind: 'retry'; readonly reason: string; readonly retryAfterMs?: number | undefined }
  /** Refused for good (another 4xx): to the dead-letter file with the reason. */
  | { readonly kind: 'dead'; readonly status: number; readonly reason: string };

/** A destination, as the ship's loop drives it. */
export interface ShipSender {
  /** Sends the documents (in as many requests as their size needs) and returns one outcome per document, in order. Throws for what no resend can fix (credentials, a wrong URL, an answer that is not the protocol's). */
  send(docs: readonly ShipDoc[], signal: AbortSignal | undefined): Promise<ItemOutcome[]>;
  /** Requests made so far. */
  readonly requests: number;
}

/** A document's JSON as text. */
export const docText = (doc: ShipDoc): string =>
  typeof doc.json === 'string' ? doc.json : doc.json.toString('utf8');

/** A document's JSON size in UTF-8 bytes. */
export const docBytes = (doc: ShipDoc): number =>
  typeof doc.json === 'string' ? Buffer.byteLength(doc.json, 'utf8') : doc.json.length;

/** What every sender is built from. */
export interface SenderSettings {
  /** The destination's base URL, without a trailing slash. */
  base: string;
  transport: Transport;
  /** Request headers besides the content type (credentials among them: never shown). */
  headers: Record<string, string>;
  maxBatchBytes: number;
  timeoutMs: number;
}
