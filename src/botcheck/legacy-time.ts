/** Calendar date, time with seconds, up to 3 fraction digits, in UTC (`Z`): read as is. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2})?(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses a legacy timestamp. The legacy API writes UTC without a zone suffix and with fractional
 * seconds (`2026-03-01T10:15:30.123456`), which `new Date()` would read as local time; this reads
 * it as UTC. A value with a zone keeps it. Returns undefined when absent or unreadable.
 */
export function parseLegacyTimestamp(value: string | null | undefined): Date | undefined {
  if (typeof value !== 'string') return undefined;
  // The current API's form (`2026-03-01T10:15:30.123Z`) is what Date reads natively: no rebuilding.
  if (ISO_UTC.test(value)) {
    const parsed = new Date(value);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  const m = TIMESTAMP.exec(value.trim());
  if (!m) return undefined;
  const [, date, hm, sec = ':00', fraction = '', zone = 'Z'] = m;
  // Date keeps milliseconds only: longer fractions are truncated.
  const ms = fraction.slice(0, 3).padEnd(3, '0');
  const offset = /^[+-]\d{4}$/.test(zone) ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone.toUpperCase();
  const parsed = new Date(`${date}T${hm}${sec}.${ms}${offset}`);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}
