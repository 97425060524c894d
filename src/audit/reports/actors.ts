import type { AuditEvent } from '../schemas.js';
import { actorId } from '../search/columns.js';
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
 * `actors`: activity per actor type and actor (user, API key, automation; ANONYMOUS and SYSTEM as
 * one row each): events, first and last seen, actions most first. schemaVersion 1 events count
 * under the USER and SYSTEM they name.
 */
export function actorsReport(): ReportBuilder {
  const actors = new Map<
    string,
    { type: string; id: string; first: string; last: string; events: number; actions: Map<string, number> }
  >();
  const days = new DayCounts();
  return {
    add(event: AuditEvent) {
      const type = textOf(fieldOf(event.actor, 'type'));
      const id = actorId(event.actor);
      const at = textOf(event.occurredAt);
      days.add(at);
      const key = JSON.stringify([type, id]);
      const actor = actors.get(key) ?? { type, id, first: at, last: at, events: 0, actions: new Map() };
      actor.events += 1;
      widen(actor, at);
      const action = textOf(event.action) || textOf(event.type);
      actor.actions.set(action, (actor.actions.get(action) ?? 0) + 1);
      actors.set(key, actor);
    },
    result(): AuditReport {
      const rows = [...actors.values()]
        .sort((a, b) => b.events - a.events || byText(a.type, b.type) || byText(a.id, b.id))
        .map((a) => [a.type, a.id, a.events, a.first, a.last, countsText(a.actions)]);
      return {
        name: 'actors',
        title: 'Activity per actor',
        columns: ['actorType', 'actor', 'events', 'firstSeen', 'lastSeen', 'actions'],
        rows,
        perDay: days.list(),
        events: days.total,
      };
    },
  };
}
