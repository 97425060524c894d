/** A command was called wrongly (exit 2). Thrown by argument parsers and handlers. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parses a non-negative integer option, or throws a {@link UsageError} naming the option. */
export function parseIntOption(
  value: string,
  option: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (!/^\d+$/.test(value.trim()))
    throw new UsageError(`${option} must be a whole number, got ${JSON.stringify(value)}`);
  const n = Number(value.trim());
  if (n < min || n > max) throw new UsageError(`${option} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Date.parse rolls 2026-02-30 over to March; a calendar date must exist as written. */
function realDay(iso: string): boolean {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Parses an ISO 8601 timestamp option (a date, or a date and time with a zone), or throws a {@link UsageError}. */
export function parseTimestampOption(value: string, option: string): string {
  const trimmed = value.trim();
  const ok =
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(trimmed) &&
    !Number.isNaN(Date.parse(trimmed)) &&
    realDay(trimmed);
  if (!ok)
    throw new UsageError(
      `${option} must be an ISO 8601 timestamp such as 2026-01-31T00:00:00Z, got ${JSON.stringify(value)}`,
    );
  return new Date(Date.parse(trimmed)).toISOString();
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses a duration option: a whole number with an optional unit (ms, s, m, h, d; no unit means seconds), into ms. */
export function parseDurationOption(value: string, option: string): number {
  const match = /^(\d{1,12})(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match)
    throw new UsageError(`${option} must be a duration such as 300, 90s, 5m, 1h or 2d, got '${value}'`);
  return Number(match[1]) * (DURATION_UNITS[match[2] ?? 's'] as number);
}
