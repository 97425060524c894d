import type { AuditEvent } from '../schemas.js';
import {
  type AuditReport,
  byText,
  countsText,
  DayCounts,
  fieldOf,
  type ReportBuilder,
  textOf,
  widen,
} from './report.js';

/**
 * `api-keys`: per API key id (events whose actor is `API_KEY`), when it was first and last seen,
 * how many events it caused and which types, most first.
 */
export function apiKeysReport(): ReportBuilder {
  const keys = new Map<string, { first: string; last: string; events: number; types: Map<string, number> }>();
  const days = new DayCounts();
  return {
    add(event: AuditEvent) {
      if (fieldOf(event.actor, 'type') !== 'API_KEY') return;
      const id = textOf(fieldOf(event.actor, 'apiKeyId'));
      const at = textOf(event.occurredAt);
      days.add(at);
      const key = keys.get(id) ?? { first: at, last: at, events: 0, types: new Map() };
      key.events += 1;
      widen(key, at);
      key.types.set(textOf(event.type), (key.types.get(textOf(event.type)) ?? 0) + 1);
      keys.set(id, key);
    },
    result(): AuditReport {
      const rows = [...keys.entries()]
        .sort(([a, x], [b, y]) => y.events - x.events || byText(a, b))
        .map(([id, k]) => [id, k.first, k.last, k.events, countsText(k.types)]);
      return {
        name: 'api-keys',
        title: 'Activity per API key',
        columns: ['apiKeyId', 'firstSeen', 'lastSeen', 'events', 'types'],
        rows,
        perDay: days.list(),
        events: days.total,
      };
    },
  };
}
