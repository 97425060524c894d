import { actorsReport } from './actors.js';
import { apiKeysReport } from './api-keys.js';
import { changesReport } from './changes.js';
import type { ReportBuilder } from './report.js';
import { signInsReport } from './sign-ins.js';
import { timelineReport } from './timeline.js';

/** The ready-made reports, by name. */
export const REPORT_NAMES = ['changes', 'sign-ins', 'api-keys', 'timeline', 'actors'] as const;

/** A report's name. */
export type ReportName = (typeof REPORT_NAMES)[number];

/** Whether a text names a ready-made report. */
export const isReportName = (name: string): name is ReportName =>
  (REPORT_NAMES as readonly string[]).includes(name);

/** The builder of a report: `timeline` takes the subject (its id or label), the others nothing. */
export function reportBuilder(name: ReportName, subject?: string): ReportBuilder {
  switch (name) {
    case 'changes':
      return changesReport();
    case 'sign-ins':
      return signInsReport();
    case 'api-keys':
      return apiKeysReport();
    case 'actors':
      return actorsReport();
    case 'timeline':
      return timelineReport(subject ?? '');
  }
}
