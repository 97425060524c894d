/** Longest string field of a console event, in characters; a longer one is cut and ends with {@link TRUNCATED}. */
export const MAX_EVENT_STRING = 1024;

/** Largest console event as the console receives it (its JSON), in bytes: 8 KiB. */
export const MAX_EVENT_BYTES = 8 * 1024;

/** What ends a string field that was cut. */
export const TRUNCATED = '… [truncated]';

/** Shorter string caps tried in turn when an event with every string at 1024 is still over 8 KiB. */
const FALLBACK_STRING_CAPS = [256, 64];

/** `text` cut to at most `max` characters, marker included, never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - TRUNCATED.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + TRUNCATED;
}

/** A copy of `value` with every string (at any depth) cut to `max` characters. */
function capStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return cut(value, max);
  if (Array.isArray(value)) return value.map((item) => capStrings(item, max));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, capStrings(item, max)]));
  }
  return value;
}

/**
 * A console event made to fit: every string field cut to {@link MAX_EVENT_STRING} characters,
 * then shorter while the whole event is over {@link MAX_EVENT_BYTES}. Events carry a fixed set of
 * short fields, so a value this cuts is one a request or an admin call made large on purpose.
 * Returns the event and its size in bytes (what the console history counts).
 */
export function fitEvent<E extends { data: unknown }>(envelope: E): { envelope: E; bytes: number } {
  let fitted = { ...envelope, data: capStrings(envelope.data, MAX_EVENT_STRING) } as E;
  let bytes = Buffer.byteLength(JSON.stringify(fitted));
  for (const max of FALLBACK_STRING_CAPS) {
    if (bytes <= MAX_EVENT_BYTES) break;
    fitted = { ...envelope, data: capStrings(envelope.data, max) } as E;
    bytes = Buffer.byteLength(JSON.stringify(fitted));
  }
  return { envelope: fitted, bytes };
}
