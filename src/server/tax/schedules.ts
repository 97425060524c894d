import { randomUUID } from 'node:crypto';
import type { ScheduleRequest } from '../../tax/request-schemas.js';
import type { Principal } from '../fixtures.js';
import { HttpProblem, paymentRequired } from '../problem.js';
import { storeIdentifier } from './limits.js';
import { addMonthsUtc, FREQUENCY_MONTHS } from './months.js';
import type { StoredSchedule, TaxStore } from './store.js';

/** Creates a schedule: `nextRunAt` is 1, 3 or 12 calendar months ahead, clamped to the month's end. */
export function createSchedule(
  store: TaxStore,
  principal: Principal,
  request: ScheduleRequest,
): { scheduleId: string; nextRunAt: string } {
  if (!principal.plan.scheduledValidation)
    throw paymentRequired('feature-not-in-plan', 'The plan does not include scheduled validation');
  storeIdentifier(store, principal, request);
  const scheduleId = `sched_${randomUUID()}`;
  const nextRunAt = new Date(
    addMonthsUtc(store.state.clock.now(), FREQUENCY_MONTHS[request.frequency]),
  ).toISOString();
  store.schedules.set(scheduleId, { projectId: principal.ownerId, scheduleId, nextRunAt, request });
  return { scheduleId, nextRunAt };
}

/** The stored schedule as the creation response shows it. */
export function scheduleView(store: TaxStore, scheduleId: string): Record<string, unknown> {
  const s = store.schedules.get(scheduleId) as StoredSchedule;
  return {
    scheduleId: s.scheduleId,
    nextRunAt: s.nextRunAt,
    countryCode: s.request.countryCode,
    rawValue: s.request.rawValue,
    frequency: s.request.frequency,
    manualReviewOnAutomaticFailure: s.request.manualReviewOnAutomaticFailure ?? true,
    isEnabled: s.request.isEnabled ?? true,
  };
}

/** Deletes a schedule of the caller's project; 404 otherwise. */
export function deleteSchedule(store: TaxStore, principal: Principal, scheduleId: string): void {
  const s = store.schedules.get(scheduleId);
  if (!s || s.projectId !== principal.ownerId) throw new HttpProblem(404, `Schedule ${scheduleId} not found`);
  store.schedules.delete(scheduleId);
}
