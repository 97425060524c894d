import type { AuditEvent } from '../schemas.js';

// What every ready-made report of the audit log is: a table (columns, rows) over the events it
// counted, and those events per UTC day, for the chart of its page.

/** A cell of a report: text or a count. */
export type ReportCell = string | number;

/** A report's result. */
export interface AuditReport {
  /** `changes`, `sign-ins`, `api-keys`, `timeline`, `actors`. */
  name: string;
  /** What it shows, in a few words (the page's title). */
  title: string;
  columns: string[];
  rows: ReportCell[][];
  /** The events the report counted, per UTC day (`2026-11-01`), oldest day first. */
  perDay: Array<{ day: string; events: number }>;
  /** The events the report counted. */
  events: number;
}

/** Takes events one at a time and makes a report of them. */
export interface ReportBuilder {
  /** Counts one event (ignored when the report has no use for it). */
  add(event: AuditEvent): void;
  /** The report of the events counted so far. */
  result(): AuditReport;
}

/** The UTC day of an ISO timestamp (`2026-11-01`); empty for a time that does not parse. */
export function dayOf(occurredAt: unknown): string {
  if (typeof occurredAt !== 'string') return '';
  const ms = Date.parse(occurredAt);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString().slice(0, 10);
}

/** Counts events per UTC day. */
export class DayCounts {
  private readonly days = new Map<string, number>();
  total = 0;

  add(occurredAt: unknown): void {
    const day = dayOf(occurredAt);
    this.total += 1;
    if (day) this.days.set(day, (this.days.get(day) ?? 0) + 1);
  }

  list(): AuditReport['perDay'] {
    return [...this.days.entries()]
      .sort(([a], [b]) => byText(a, b))
      .map(([day, events]) => ({ day, events }));
  }
}

/** Orders strings by code unit (the same order in every locale): for sorting rows. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** When something was first and last seen: ISO 8601 times, widened by each new one. */
export interface SeenSpan {
  first: string;
  last: string;
}

/** Widens `span` to hold `at` (an ISO 8601 time). */
export function widen(span: SeenSpan, at: string): void {
  if (Date.parse(at) < Date.parse(span.first)) span.first = at;
  if (Date.parse(at) > Date.parse(span.last)) span.last = at;
}

/** Text of a field of an event part, or ''. */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An object's field, when the value is an object. */
export const fieldOf = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** Keys of a count map as `name count` pairs, most first (ties by name), joined with `; `. */
export function countsText(counts: Map<string, number>): string {
  return [...counts.entries()]
    .sort(([a, x], [b, y]) => y - x || byText(a, b))
    .map(([name, n]) => `${name} ${n}`)
    .join('; ');
}

/** Builds a report from a stream of events (an archive search, the API, an array). */
export async function buildReport(
  builder: ReportBuilder,
  events: AsyncIterable<AuditEvent> | Iterable<AuditEvent>,
): Promise<AuditReport> {
  for await (const event of events) builder.add(event);
  return builder.result();
}
