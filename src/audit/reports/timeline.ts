import type { AuditEvent } from '../schemas.js';
import { actorLabel } from '../search/columns.js';
import { type AuditReport, byText, DayCounts, fieldOf, type ReportBuilder, textOf } from './report.js';

/**
 * `timeline SUBJECT`: everything that happened to one resource, oldest first: the events whose
 * subject's id or label is `subject` (case does not matter), with who did it and which fields
 * changed. Holds that resource's events to sort them, no others.
 */
export function timelineReport(subject: string): ReportBuilder {
  const wanted = subject.toLowerCase();
  const kept: AuditEvent[] = [];
  const days = new DayCounts();
  return {
    add(event: AuditEvent) {
      const id = textOf(fieldOf(event.subject, 'id')).toLowerCase();
      const label = textOf(fieldOf(event.subject, 'label')).toLowerCase();
      if (id !== wanted && label !== wanted) return;
      days.add(event.occurredAt);
      kept.push(event);
    },
    result(): AuditReport {
      const rows = kept
        .sort((a, b) => Date.parse(a.occurredAt) - Date.parse(b.occurredAt) || byText(a.id, b.id))
        .map((e) => [
          textOf(e.occurredAt),
          textOf(e.type),
          actorLabel(e.actor),
          (Array.isArray(e.changes) ? e.changes : []).map((c) => textOf(fieldOf(c, 'field'))).join(';'),
          textOf(e.id),
        ]);
      return {
        name: 'timeline',
        title: `Timeline of ${subject}`,
        columns: ['occurredAt', 'type', 'actor', 'fields', 'id'],
        rows,
        perDay: days.list(),
        events: days.total,
      };
    },
  };
}
