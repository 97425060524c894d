// The events of a pushed body: one JSON object, a JSON array, NDJSON or an Okta event hook
// envelope, plain or gzip, each event checked only as far as a receiver needs to store and
// deduplicate it (a string id and occurredAt).

import { SvcError } from '../../core/errors/error-classes.js';
import type { AuditEvent } from '../schemas.js';
import { inflatePushBody } from './inflate.js';

/** Options of {@link parseAuditPush}. */
export interface ParseAuditPushOptions {
  /** The `Content-Type` header. `application/x-ndjson` (or `application/ndjson`) means NDJSON; anything else is read by its first character. */
  contentType?: string | undefined;
  /** The `Content-Encoding` header: `gzip` (or `x-gzip`), `identity` or none. A body opening with gzip's magic bytes is inflated either way. */
  contentEncoding?: string | undefined;
  /** Largest body accepted, in bytes, counted after inflating. Default 10 MiB (10485760). */
  maxBytes?: number;
}

/**
 * The events of a pushed body, or why it was refused (`status` is what to answer: 400 malformed,
 * 413 too large, 415 an unknown content coding, or gzip where the runtime has no
 * `DecompressionStream`, as in Vercel's Edge Runtime; `reason` is one line naming the position: the
 * line of NDJSON, the item of an array, and the character of a body that is not JSON only where
 * the engine's `JSON.parse` gives it, as V8 does and Bun's JavaScriptCore does not).
 *
 * - `events`: each checked only for a string `id` and a string `occurredAt`; the other fields are
 *   as sent, not validated against {@link AuditEvent}'s schema.
 * - `lines`: each event's JSON text: the line as received for NDJSON, the body without surrounding
 *   whitespace for a single object, and `JSON.stringify` of the element for an array or an
 *   envelope (the exact bytes of those elements are not kept).
 * - `form`: how the body was laid out: `single`, `array`, `ndjson`, or `envelope` for a single
 *   object without `id` whose `data.events` is an array (the body of an Okta event hook), read as
 *   those events; `gzip`: whether it was inflated.
 * - `probe`: the body was a sender's test delivery, and `events` is empty. Exactly two shapes are
 *   probes: a single JSON object with `"test": true` and no `id`, and the object
 *   `{"content":"tests"}` with no other member (what Cloudflare Logpush sends, gzip, to validate
 *   an HTTP destination).
 */
export type PushBody =
  | {
      ok: true;
      events: AuditEvent[];
      lines: string[];
      form: 'single' | 'array' | 'ndjson' | 'envelope';
      gzip: boolean;
      probe: boolean;
    }
  | { ok: false; status: 400 | 413 | 415; reason: string };

type Refusal = Extract<PushBody, { ok: false }>;
type Form = Extract<PushBody, { ok: true }>['form'];

/** 10 MiB. */
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/ndjson']);

const refuse = (reason: string): Refusal => ({ ok: false, status: 400, reason });

/** Why `value` is not an audit event, or undefined when it is one as far as this check goes. */
function _notAnEvent(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const fields = value as Record<string, unknown>;
  if (typeof fields['id'] !== 'string') return 'no string "id"';
  if (typeof fields['occurredAt'] !== 'string') return 'no string "occurredAt"';
  return undefined;
}

/** A sender's test delivery: `{"test": true}` without `id`, or Cloudflare Logpush's `{"content":"tests"}`. */
function _isProbe(fields: Record<string, unknown>): boolean {
  if (fields['test'] === true && !('id' in fields)) return true;
  const keys = Object.keys(fields);
  return keys.length === 1 && keys[0] === 'content' && fields['content'] === 'tests';
}

/** The engine's offset in a JSON.parse error, as a 1-based character, when it gives one. */
function _where(error: unknown): string {
  const position = /at position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  return position === undefined ? '' : ` (at character ${Number(position) + 1})`;
}

function _parse(text: string): { value: unknown } | { error: unknown } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error };
  }
}

function _events(
  values: readonly unknown[],
  lines: string[],
  label: (i: number) => string,
): { events: AuditEvent[]; lines: string[] } | Refusal {
  for (const [i, value] of values.entries()) {
    const problem = _notAnEvent(value);
    if (problem) return refuse(`${label(i)} is not an audit event (${problem})`);
  }
  return { events: values as AuditEvent[], lines };
}

function _ndjson(text: string): { events: AuditEvent[]; lines: string[] } | Refusal {
  const values: unknown[] = [];
  const lines: string[] = [];
  const numbers: number[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const parsed = _parse(line);
    if ('error' in parsed) return refuse(`line ${i + 1} is not JSON${_where(parsed.error)}`);
    values.push(parsed.value);
    lines.push(line);
    numbers.push(i + 1);
  }
  return _events(values, lines, (i) => `line ${numbers[i]}`);
}

/**
 * NDJSON read from the bytes line by line, as {@link _ndjson} reads it from text: no string of the
 * whole body is made (one over some 128 KB lives in the old generation until a full collection,
 * so a busy receiver's heap grew by a batch's size per push). A newline byte is never part of a
 * multi-byte UTF-8 sequence, so each line is decoded alone; a BOM is dropped from the first only.
 */
function _ndjsonBytes(bytes: Uint8Array): { events: AuditEvent[]; lines: string[] } | Refusal {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const values: unknown[] = [];
  const lines: string[] = [];
  const numbers: number[] = [];
  for (let start = 0, number = 1; start <= bytes.length; number++) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    const stop = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
    let line: string;
    try {
      line = decoder.decode(bytes.subarray(start, stop));
    } catch {
      return refuse('the body is not UTF-8');
    }
    if (number === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    start = end + 1;
    if (line.trim() === '') continue;
    const parsed = _parse(line);
    if ('error' in parsed) return refuse(`line ${number} is not JSON${_where(parsed.error)}`);
    values.push(parsed.value);
    lines.push(line);
    numbers.push(number);
  }
  if (values.length === 0) return refuse('empty body');
  return _events(values, lines, (i) => `line ${numbers[i]}`);
}

/**
 * Reads a pushed body. The form is NDJSON when the content type says so; otherwise a body opening
 * with `[` is an array, and one opening with `{` is a single object when the whole body is one JSON
 * value, else NDJSON (for senders that label NDJSON `application/json`). A single object without
 * `id` whose `data` holds `events` is an envelope: its `data.events` must be an array, else a 400.
 * An empty body is a 400.
 * The size cap applies after inflating, and inflating stops at it.
 *
 * @throws {SvcError} code `config` when `maxBytes` is not a positive whole number.
 * @example
 * const parsed = await parseAuditPush(bytes, {
 *   contentType: request.headers.get('content-type') ?? undefined,
 *   contentEncoding: request.headers.get('content-encoding') ?? undefined,
 * });
 * if (!parsed.ok) return new Response(parsed.reason, { status: parsed.status });
 */
export async function parseAuditPush(
  body: Uint8Array,
  options: ParseAuditPushOptions = {},
): Promise<PushBody> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new SvcError('maxBytes must be a whole number of bytes, 1 or more', 'config');
  }
  const inflated = await inflatePushBody(body, options.contentEncoding, maxBytes);
  if (!inflated.ok) return inflated;
  const mediaType = (options.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (NDJSON_TYPES.has(mediaType)) {
    const read = _ndjsonBytes(inflated.bytes);
    return 'ok' in read ? read : { ok: true, ...read, form: 'ndjson', gzip: inflated.gzip, probe: false };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated.bytes);
  } catch {
    return refuse('the body is not UTF-8');
  }
  const trimmed = text.trim();
  if (trimmed === '') return refuse('empty body');
  const result = (form: Form, read: ReturnType<typeof _ndjson>, probe = false) =>
    'ok' in read ? read : { ok: true as const, ...read, form, gzip: inflated.gzip, probe };

  if (trimmed[0] !== '[' && trimmed[0] !== '{')
    return refuse('the body is not a JSON object, array or NDJSON');

  const whole = _parse(trimmed);
  if ('error' in whole) {
    return trimmed[0] === '{' && trimmed.includes('\n')
      ? result('ndjson', _ndjson(text))
      : refuse(`the body is not JSON${_where(whole.error)}`);
  }
  if (Array.isArray(whole.value)) {
    return result(
      'array',
      _events(
        whole.value,
        whole.value.map((v) => JSON.stringify(v)),
        (i) => `item ${i + 1}`,
      ),
    );
  }
  const fields = whole.value as Record<string, unknown>;
  if (_isProbe(fields)) return result('single', { events: [], lines: [] }, true);
  const data = fields['data'];
  if (!('id' in fields) && typeof data === 'object' && data !== null && 'events' in data) {
    const events: unknown = (data as Record<string, unknown>)['events'];
    if (!Array.isArray(events)) return refuse("the body's data.events is not an array");
    return result(
      'envelope',
      _events(
        events,
        events.map((v) => JSON.stringify(v)),
        (i) => `data.events item ${i + 1}`,
      ),
    );
  }
  return result(
    'single',
    _events([whole.value], [trimmed], () => 'the body'),
  );
}
