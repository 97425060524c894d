import { createHash, randomUUID } from 'node:crypto';
import type { KnownOutcome, KnownProvider } from '../../tax/enums.js';
import { precheck } from '../../tax/precheck/index.js';
import type { ScheduleRequest, ValidationRequest } from '../../tax/request-schemas.js';
import type { ValidationResult } from '../../tax/response-schemas.js';
import type { Principal } from '../fixtures.js';
import { HttpProblem, type ProblemIssue } from '../problem.js';
import { registryRecord } from '../registry-fixture.js';
import { stableJson } from '../stable-json.js';
import type { ServerState } from '../state.js';
import type { WebhookSender } from '../webhooks.js';
import { addMonthsUtc, FREQUENCY_MONTHS } from './months.js';
import { routeProvider } from './routing.js';

/** How a provider answers (admin `POST /__admin/providers/{provider}`). */
export type ProviderMode = 'sync' | 'async' | 'unavailable';

interface StoredRequest {
  projectId: string;
  validationRequestId: string;
  bodyHash: string;
  status: 'PENDING' | 'COMPLETED';
  validationResultId: string | undefined;
}

interface StoredSchedule {
  projectId: string;
  scheduleId: string;
  nextRunAt: string;
  request: ScheduleRequest;
}

/** A request that passed validation, with its routing decided. */
export interface AcceptedItem {
  body: ValidationRequest;
  provider: KnownProvider | null;
}

function hashBody(body: ValidationRequest): string {
  return createHash('sha256').update(stableJson(body)).digest('hex');
}

function simplify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function matchText(given: string, known: string): 'MATCH' | 'PARTIAL_MATCH' | 'NO_MATCH' {
  const a = simplify(given);
  const b = simplify(known);
  if (a === b) return 'MATCH';
  if (a.length >= 3 && (b.includes(a) || a.includes(b))) return 'PARTIAL_MATCH';
  return 'NO_MATCH';
}

/** The tax-validation semantics of the reference server. */
export class TaxEngine {
  readonly providerModes = new Map<string, ProviderMode>();
  private requests = new Map<string, StoredRequest>();
  private idempotency = new Map<string, StoredRequest>();
  private results = new Map<string, ValidationResult & { projectId: string }>();
  private identifiers = new Map<string, Set<string>>();
  private schedules = new Map<string, StoredSchedule>();
  private readonly timers = new Set<NodeJS.Immediate>();

  constructor(
    private readonly state: ServerState,
    private readonly webhooks: WebhookSender,
  ) {
    state.onReset(() => {
      this.providerModes.clear();
      this.requests = new Map();
      this.idempotency = new Map();
      this.results = new Map();
      this.identifiers = new Map();
      this.schedules = new Map();
    });
  }

  /** Routing issues of one item (pinned provider that cannot serve the country). */
  route(body: ValidationRequest, pathPrefix: string): { item: AcceptedItem; issue?: ProblemIssue } {
    const { provider, issue } = routeProvider(
      body.countryCode,
      body.requesterVatId,
      body.preferredProvider,
      `${pathPrefix}preferredProvider`,
    );
    return issue ? { item: { body, provider }, issue } : { item: { body, provider } };
  }

  private identifierKey(body: { countryCode: string; rawValue: string }): string {
    return `${body.countryCode}:${precheck(body.countryCode, body.rawValue).normalized}`;
  }

  /** 402 when storing the new identifiers of `bodies` would pass the plan's limit. */
  checkIdentifierLimit(
    principal: Principal,
    bodies: ReadonlyArray<{ countryCode: string; rawValue: string }>,
  ): void {
    const limit = principal.plan.identifierLimit;
    if (limit === null) return;
    const known = this.identifiers.get(principal.ownerId) ?? new Set<string>();
    const fresh = new Set(bodies.map((b) => this.identifierKey(b)).filter((k) => !known.has(k)));
    if (known.size + fresh.size > limit) {
      throw new HttpProblem(
        402,
        `Plan limit reached: at most ${limit} stored identifiers (${known.size} stored)`,
      );
    }
  }

  private storeIdentifier(principal: Principal, body: { countryCode: string; rawValue: string }): string {
    const key = this.identifierKey(body);
    let set = this.identifiers.get(principal.ownerId);
    if (!set) {
      set = new Set();
      this.identifiers.set(principal.ownerId, set);
    }
    set.add(key);
    return `taxid_${createHash('sha256').update(`${principal.ownerId}:${key}`).digest('hex').slice(0, 20)}`;
  }

  /** The stored request for an idempotency key: replay, conflict (409), or none. */
  lookupIdempotent(principal: Principal, body: ValidationRequest): StoredRequest | undefined {
    if (!body.idempotencyKey) return undefined;
    const stored = this.idempotency.get(`${principal.ownerId}:${body.idempotencyKey}`);
    if (!stored) return undefined;
    if (stored.bodyHash !== hashBody(body)) {
      throw new HttpProblem(
        409,
        `idempotencyKey '${body.idempotencyKey}' was already used with a different request`,
      );
    }
    this.state.stats.idempotentReplays += 1;
    return stored;
  }

  /** Registers a new request; `validationsProcessed` counts it once. */
  accept(principal: Principal, item: AcceptedItem): StoredRequest {
    const stored: StoredRequest = {
      projectId: principal.ownerId,
      validationRequestId: `valreq_${randomUUID()}`,
      bodyHash: hashBody(item.body),
      status: 'PENDING',
      validationResultId: undefined,
    };
    this.requests.set(stored.validationRequestId, stored);
    if (item.body.idempotencyKey)
      this.idempotency.set(`${principal.ownerId}:${item.body.idempotencyKey}`, stored);
    this.state.stats.validationsProcessed += 1;
    return stored;
  }

  /** Whether the provider answers later (202). */
  isAsync(item: AcceptedItem): boolean {
    return item.provider !== null && this.providerModes.get(item.provider) === 'async';
  }

  /** Completes on the next turn of the event loop, as an asynchronous registry answer would. */
  completeLater(principal: Principal, item: AcceptedItem, stored: StoredRequest): void {
    const timer = setImmediate(() => {
      this.timers.delete(timer);
      this.complete(principal, item, stored);
    });
    this.timers.add(timer);
  }

  /** Runs the check, stores the result, fires webhooks. */
  complete(principal: Principal, item: AcceptedItem, stored: StoredRequest): ValidationResult {
    const { body, provider } = item;
    const now = this.state.nowIso();
    const check = precheck(body.countryCode, body.rawValue);
    const mode = provider ? (this.providerModes.get(provider) ?? 'sync') : 'sync';
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
            ? this.matchAddress(body.address, record.address)
            : 'NO_MATCH';
    }
    const result: ValidationResult & { projectId: string } = {
      projectId: principal.ownerId,
      validationRequestId: stored.validationRequestId,
      validationResultId: `valres_${randomUUID()}`,
      taxIdentifierId: this.storeIdentifier(principal, body),
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
      const schedule = this.createSchedule(principal, { ...body, ...body.attachSchedule });
      result.schedule = { scheduleId: schedule.scheduleId, nextRunAt: schedule.nextRunAt };
    }
    this.results.set(result.validationResultId, result);
    stored.status = 'COMPLETED';
    stored.validationResultId = result.validationResultId;
    this.fireWebhooks(principal, body, result);
    return this.publicResult(result);
  }

  private matchAddress(given: NonNullable<ValidationRequest['address']>, known: Record<string, string>) {
    const fields = Object.entries(given).filter(([, v]) => typeof v === 'string' && v !== '');
    if (fields.length === 0) return 'NOT_REQUESTED';
    const hits = fields.filter(
      ([k, v]) => known[k] !== undefined && simplify(known[k] as string) === simplify(v as string),
    ).length;
    return hits === fields.length ? 'MATCH' : hits > 0 ? 'PARTIAL_MATCH' : 'NO_MATCH';
  }

  private fireWebhooks(principal: Principal, body: ValidationRequest, result: ValidationResult): void {
    const base = {
      occurredAt: result.checkedAt,
      taxValidatorId: `tv_${principal.ownerId}`,
      validationResultId: result.validationResultId,
      outcome: result.outcome,
      provider: result.provider ?? null,
      providerStatus: result.providerStatus,
    };
    this.webhooks.send({ eventType: 'taxvalidation.validation.completed', ...base });
    if (result.outcome === 'INVALID')
      this.webhooks.send({ eventType: 'taxvalidation.validation.invalid', ...base });
    const reviewWanted =
      body.attachSchedule?.manualReviewOnAutomaticFailure ?? principal.manualReviewOnFailure;
    if ((result.outcome === 'SOURCE_UNAVAILABLE' || result.outcome === 'UNKNOWN') && reviewWanted) {
      this.webhooks.send({
        eventType: 'taxvalidation.validation.manual-review-required',
        occurredAt: result.checkedAt,
        taxValidatorId: `tv_${principal.ownerId}`,
        validationRequestId: result.validationRequestId,
        status: 'MANUAL_REVIEW',
      });
    }
  }

  /** The result without server bookkeeping. */
  publicResult(result: ValidationResult & { projectId?: string }): ValidationResult {
    const { projectId: _project, ...rest } = result;
    return rest;
  }

  /** The result of a stored request (for replays), if completed. */
  resultOf(stored: StoredRequest): ValidationResult | undefined {
    const result = stored.validationResultId ? this.results.get(stored.validationResultId) : undefined;
    return result && this.publicResult(result);
  }

  /** A stored result of the caller's project. */
  getResult(principal: Principal, id: string): ValidationResult {
    const result = this.results.get(id);
    if (!result || result.projectId !== principal.ownerId)
      throw new HttpProblem(404, `Validation result ${id} not found`);
    return this.publicResult(result);
  }

  /** Creates a schedule: `nextRunAt` is 1, 3 or 12 calendar months ahead, clamped to the month's end. */
  createSchedule(principal: Principal, request: ScheduleRequest): { scheduleId: string; nextRunAt: string } {
    if (!principal.plan.scheduledValidation)
      throw new HttpProblem(402, 'The plan does not include scheduled validation');
    this.storeIdentifier(principal, request);
    const scheduleId = `sched_${randomUUID()}`;
    const nextRunAt = new Date(
      addMonthsUtc(this.state.clock.now(), FREQUENCY_MONTHS[request.frequency]),
    ).toISOString();
    this.schedules.set(scheduleId, { projectId: principal.ownerId, scheduleId, nextRunAt, request });
    return { scheduleId, nextRunAt };
  }

  /** The stored schedule as the creation response shows it. */
  scheduleView(scheduleId: string): Record<string, unknown> {
    const s = this.schedules.get(scheduleId) as StoredSchedule;
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

  deleteSchedule(principal: Principal, scheduleId: string): void {
    const s = this.schedules.get(scheduleId);
    if (!s || s.projectId !== principal.ownerId)
      throw new HttpProblem(404, `Schedule ${scheduleId} not found`);
    this.schedules.delete(scheduleId);
  }

  close(): void {
    for (const timer of this.timers) clearImmediate(timer);
    this.timers.clear();
  }
}
