import type { KnownOutcome } from '../../tax/enums.js';
import { precheck } from '../../tax/precheck/index.js';
import type { ValidationResult } from '../../tax/response-schemas.js';
import type { Principal } from '../fixtures.js';
import { storeIdentifier } from './limits.js';
import { buildResult } from './results.js';
import type { AcceptedItem } from './routing.js';
import { createSchedule } from './schedules.js';
import type { TaxStore, ValidationRecord } from './store.js';
import type { ResultEvents } from './webhook-events.js';

/** Completes accepted requests: now (201) or on the next turn of the event loop (202, batches). */
export class Completer {
  private readonly timers = new Set<NodeJS.Immediate>();

  constructor(
    private readonly store: TaxStore,
    private readonly sendEvents: ResultEvents,
  ) {}

  /** Whether the provider answers later (202). */
  isAsync(item: AcceptedItem): boolean {
    return item.provider !== null && this.store.providerModes.get(item.provider) === 'async';
  }

  /** Completes on the next turn of the event loop, as an asynchronous registry answer would. */
  later(principal: Principal, record: ValidationRecord): void {
    const timer = setImmediate(() => {
      this.timers.delete(timer);
      this.complete(principal, record);
    });
    this.timers.add(timer);
  }

  /** Runs the check, stores the verdict, fires the webhooks; returns the result. */
  now(principal: Principal, record: ValidationRecord): ValidationResult {
    this.complete(principal, record);
    return buildResult(this.store, record);
  }

  /** Drops completions not yet run (server close). */
  close(): void {
    for (const timer of this.timers) clearImmediate(timer);
    this.timers.clear();
  }

  private complete(principal: Principal, record: ValidationRecord): void {
    this.check(principal, record);
    const { body } = record;
    this.sendEvents(principal, record);
    this.store.state.events.publish('tax', {
      validationResultId: this.store.resultId(record) as string,
      countryCode: body.countryCode,
      rawValue: body.rawValue,
      outcome: record.outcome as KnownOutcome,
      provider: record.provider,
    });
  }

  /**
   * Decides the verdict: NOT_SUPPORTED without a registry, SOURCE_UNAVAILABLE when switched off,
   * else the checksum's. Only the verdict is stored; the result is rebuilt from it when shown.
   */
  private check(principal: Principal, record: ValidationRecord): void {
    const { body, provider } = record;
    const mode = provider ? (this.store.providerModes.get(provider) ?? 'sync') : 'sync';
    let outcome: KnownOutcome;
    if (provider === null) outcome = 'NOT_SUPPORTED';
    else if (mode === 'unavailable') outcome = 'SOURCE_UNAVAILABLE';
    else outcome = precheck(body.countryCode, body.rawValue).valid ? 'VALID' : 'INVALID';
    storeIdentifier(this.store, principal, body);
    if (body.attachSchedule) {
      const schedule = createSchedule(this.store, principal, { ...body, ...body.attachSchedule });
      record.schedule = { scheduleId: schedule.scheduleId, nextRunAt: schedule.nextRunAt };
    }
    record.outcome = outcome;
    record.providerError = mode === 'unavailable' && provider !== null;
    record.completedAt = this.store.state.clock.now();
  }
}
