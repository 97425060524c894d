import { randomUUID } from 'node:crypto';
import type { KnownOutcome } from '../../tax/enums.js';
import { precheck } from '../../tax/precheck/index.js';
import type { ValidationResult } from '../../tax/response-schemas.js';
import type { Principal } from '../fixtures.js';
import { storeIdentifier } from './limits.js';
import { matchAddress, matchText } from './matching.js';
import { registryRecord } from './registry-fixture.js';
import { publicResult } from './results.js';
import type { AcceptedItem } from './routing.js';
import { createSchedule } from './schedules.js';
import type { StoredRequest, StoredResult, TaxStore } from './store.js';
import { sendResultEvents } from './webhook-events.js';
import type { WebhookSender } from './webhook-sender.js';

/** Completes accepted requests: now (201) or on the next turn of the event loop (202, batches). */
export class Completer {
  private readonly timers = new Set<NodeJS.Immediate>();

  constructor(
    private readonly store: TaxStore,
    private readonly webhooks: WebhookSender,
  ) {}

  /** Whether the provider answers later (202). */
  isAsync(item: AcceptedItem): boolean {
    return item.provider !== null && this.store.providerModes.get(item.provider) === 'async';
  }

  /** Completes on the next turn of the event loop, as an asynchronous registry answer would. */
  later(principal: Principal, item: AcceptedItem, stored: StoredRequest): void {
    const timer = setImmediate(() => {
      this.timers.delete(timer);
      this.now(principal, item, stored);
    });
    this.timers.add(timer);
  }

  /** Runs the check, stores the result, fires the webhooks. */
  now(principal: Principal, item: AcceptedItem, stored: StoredRequest): ValidationResult {
    const result = this.check(principal, item, stored);
    this.store.results.set(result.validationResultId, result);
    stored.status = 'COMPLETED';
    stored.validationResultId = result.validationResultId;
    sendResultEvents(this.webhooks, principal, item.body, result);
    this.store.state.events.publish('tax', {
      validationResultId: result.validationResultId,
      countryCode: item.body.countryCode,
      rawValue: item.body.rawValue,
      outcome: result.outcome,
      provider: result.provider ?? null,
    });
    return publicResult(result);
  }

  /** Drops completions not yet run (server close). */
  close(): void {
    for (const timer of this.timers) clearImmediate(timer);
    this.timers.clear();
  }

  /** The outcome: NOT_SUPPORTED without a registry, SOURCE_UNAVAILABLE when switched off, else the checksum's verdict. */
  private check(principal: Principal, item: AcceptedItem, stored: StoredRequest): StoredResult {
    const { body, provider } = item;
    const now = this.store.state.nowIso();
    const check = precheck(body.countryCode, body.rawValue);
    const mode = provider ? (this.store.providerModes.get(provider) ?? 'sync') : 'sync';
    let outcome: KnownOutcome;
    if (provider === null) outcome = 'NOT_SUPPORTED';
    else if (mode === 'unavailable') outcome = 'SOURCE_UNAVAILABLE';
    else outcome = check.valid ? 'VALID' : 'INVALID';
    const record =
      outcome === 'VALID' ? registryRecord(body.countryCode, check.canonical ?? check.normalized) : undefined;
    const match: Record<string, string> = {};
    if (outcome === 'VALID' || outcome === 'INVALID') {
      match.companyName =
        body.companyName === undefined
          ? 'NOT_REQUESTED'
          : record
            ? matchText(body.companyName, record.companyName)
            : 'NO_MATCH';
      match.address =
        body.address === undefined
          ? 'NOT_REQUESTED'
          : record
            ? matchAddress(body.address, record.address)
            : 'NO_MATCH';
    }
    const result: StoredResult = {
      projectId: principal.ownerId,
      validationRequestId: stored.validationRequestId,
      validationResultId: `valres_${randomUUID()}`,
      taxIdentifierId: storeIdentifier(this.store, principal, body),
      status: 'COMPLETED',
      outcome,
      provider,
      providerStatus: mode === 'unavailable' && provider ? 'PROVIDER_ERROR' : 'SUCCESS',
      verificationMethod: 'AUTOMATIC',
      match,
      responseData: record
        ? { companyName: record.companyName, sourceReference: record.sourceReference }
        : {},
      checkedAt: now,
      correlationId: body.correlationId ?? null,
      input: {
        countryCode: body.countryCode,
        rawValue: body.rawValue,
        normalizedValue: check.normalized,
        ...(body.companyName !== undefined && { companyName: body.companyName }),
        ...(body.address !== undefined && { address: body.address }),
        ...(body.requesterVatId !== undefined && { requesterVatId: body.requesterVatId }),
        ...(body.preferredProvider !== undefined && { preferredProvider: body.preferredProvider }),
      },
      customerMetadata: body.customerMetadata ?? {},
      createdAt: now,
      completedAt: now,
    };
    if (body.attachSchedule) {
      const schedule = createSchedule(this.store, principal, { ...body, ...body.attachSchedule });
      result.schedule = { scheduleId: schedule.scheduleId, nextRunAt: schedule.nextRunAt };
    }
    return result;
  }
}
