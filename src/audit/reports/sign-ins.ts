import type { AuditEvent } from '../schemas.js';
import { type AuditReport, byText, DayCounts, dayOf, fieldOf, type ReportBuilder, textOf } from './report.js';

/** The actions of a sign-in: `authenticated` succeeded, `authentication-failed` failed. */
export const SIGN_IN_ACTIONS = { authenticated: 'succeeded', 'authentication-failed': 'failed' } as const;

/**
 * `sign-ins`: sign-ins (events whose action is `authenticated` or `authentication-failed`) per
 * UTC day, masked IP address and user (the subject), with how many succeeded and failed; days
 * oldest first, then by most failures.
 */
export function signInsReport(): ReportBuilder {
  const groups = new Map<
    string,
    { day: string; ip: string; user: string; succeeded: number; failed: number }
  >();
  const days = new DayCounts();
  return {
    add(event: AuditEvent) {
      const outcome = SIGN_IN_ACTIONS[textOf(event.action) as keyof typeof SIGN_IN_ACTIONS];
      if (!outcome) return;
      days.add(event.occurredAt);
      const day = dayOf(event.occurredAt);
      const ip = textOf(fieldOf(event.details, 'ipAddress'));
      const user = textOf(fieldOf(event.subject, 'id'));
      const key = JSON.stringify([day, ip, user]);
      const group = groups.get(key) ?? { day, ip, user, succeeded: 0, failed: 0 };
      group[outcome] += 1;
      groups.set(key, group);
    },
    result(): AuditReport {
      const rows = [...groups.values()]
        .sort(
          (a, b) =>
            byText(a.day, b.day) || b.failed - a.failed || byText(a.ip, b.ip) || byText(a.user, b.user),
        )
        .map((g) => [g.day, g.ip, g.user, g.succeeded, g.failed]);
      return {
        name: 'sign-ins',
        title: 'Sign-ins by day, masked IP address and user',
        columns: ['day', 'ip', 'user', 'succeeded', 'failed'],
        rows,
        perDay: days.list(),
        events: days.total,
      };
    },
  };
}
