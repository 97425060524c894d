import type { AuditEvent } from '../schemas.js';
import { actorLabel } from '../search/columns.js';
import {
  type AuditReport,
  DayCounts,
  fieldOf,
  type ReportBuilder,
  type ReportCell,
  textOf,
} from './report.js';

/** How a redacted value reads in the changes report: secret values are never recorded. */
export const REDACTED = '(redacted)';

/** A value before or after a change as one cell: text as is, anything else as JSON, none as ''. */
function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * `changes`: one row per change of a subject, in the order the events come: time, actor, subject,
 * field, the value before and after (`(redacted)` for a secret, whose values are never recorded).
 * Events without changes are not counted.
 */
export function changesReport(): ReportBuilder {
  const rows: ReportCell[][] = [];
  const days = new DayCounts();
  return {
    add(event: AuditEvent) {
      const changes = Array.isArray(event.changes) ? event.changes : [];
      if (changes.length === 0) return;
      days.add(event.occurredAt);
      const subject = textOf(fieldOf(event.subject, 'label')) || textOf(fieldOf(event.subject, 'id'));
      for (const change of changes) {
        const redacted = fieldOf(change, 'isRedacted') === true;
        rows.push([
          textOf(event.occurredAt),
          actorLabel(event.actor),
          textOf(fieldOf(event.subject, 'kind')),
          subject,
          textOf(fieldOf(change, 'field')),
          redacted ? REDACTED : valueText(fieldOf(change, 'before')),
          redacted ? REDACTED : valueText(fieldOf(change, 'after')),
        ]);
      }
    },
    result(): AuditReport {
      return {
        name: 'changes',
        title: 'Changes',
        columns: ['occurredAt', 'actor', 'subjectKind', 'subject', 'field', 'before', 'after'],
        rows,
        perDay: days.list(),
        events: days.total,
      };
    },
  };
}
