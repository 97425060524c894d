/**
 * What the dev server tells the console (`/__console/events`). Plain data only: this file is
 * shared with the browser modules of the console, so it imports nothing.
 */

/** One API request as the console lists it; the key is already masked. */
export interface RequestEvent {
  method: string;
  /** Decoded path (cut like every string of an event, see `caps.ts`); shown as text, never as HTML. */
  path: string;
  status: number;
  latencyMs: number;
  requestId: string;
  /** Masked key that came with the request, if any. */
  key: string | undefined;
  /** Whose fixture key it is (`project demo`, `agency demo-agency`), `unknown key`, or undefined without a key. */
  principal: string | undefined;
}

/** A verification was created, finished or fetched. */
export interface VerificationEvent {
  verificationId: string;
  /** `created` (unfinished until `finished`), `finished`, `fetched` (a result was answered). */
  change: 'created' | 'finished' | 'fetched';
  /** Widget outcome it was made for (`pass`, `bot`...), or `custom` for an admin body. */
  outcome: string;
  /** The token the widget would yield; only on `created`. */
  token?: string;
  passed: boolean;
  score: number;
  finishedAt: string | null;
  expiresAt: string | null;
  fetches: number;
  maxFetches: number;
}

/** A tax validation completed. */
export interface TaxEvent {
  validationResultId: string;
  countryCode: string;
  rawValue: string;
  outcome: string;
  provider: string | null;
}

/** One webhook delivery's latest state (the shape of `GET /__admin/webhook-deliveries` items). */
export interface WebhookDeliveryEvent {
  id: string;
  url: string;
  eventType: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  state: string;
}

/** Audit events were added (seeded or posted). */
export interface AuditSeedEvent {
  added: number;
  scope: string;
  ownerId: string;
  from: string;
  to: string;
}

/** Settings the console shows and changes; each published whole when it changes. */
export interface ConsoleSettings {
  /** Provider name to mode; providers not listed answer `sync`. */
  providers: Record<string, string>;
  /** Current fault injection, null when off. */
  faults: { rate: number; kinds: string[]; seed: number } | null;
  /** Server time when published (ms since the epoch) and whether it stands still. */
  clock: { now: number; frozen: boolean };
}

/** Every event by its SSE `event:` name. */
export interface ConsoleEventMap {
  request: RequestEvent;
  verification: VerificationEvent;
  tax: TaxEvent;
  webhook: WebhookDeliveryEvent;
  audit: AuditSeedEvent;
}

/** Name of a logged event. */
export type ConsoleEventName = keyof ConsoleEventMap;

/** A logged event with its id (the SSE `id:`) and server time. */
export type ConsoleEnvelope = {
  [K in ConsoleEventName]: { id: number; at: string; type: K; data: ConsoleEventMap[K] };
}[ConsoleEventName];
