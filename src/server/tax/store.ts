import { randomUUID } from 'node:crypto';
import type { KnownOutcome, KnownProvider } from '../../tax/enums.js';
import type { ScheduleRequest, ValidationRequest } from '../../tax/request-schemas.js';
import type { ServerState } from '../state.js';

/** How a provider answers (admin `POST /__admin/providers/{provider}`). */
export type ProviderMode = 'sync' | 'async' | 'unavailable';

/**
 * One accepted validation request and, once checked, what its result needs, kept compact: the
 * request body as parsed (its strings are shared, never copied), the verdict as a few fields, and
 * no id strings (they are made from `seq` when shown). The full result is rebuilt on demand
 * (`results.ts`), so a million validations cost a few hundred bytes each, not a result object.
 */
export class ValidationRecord {
  /** The verdict; undefined while the check is pending. */
  outcome: KnownOutcome | undefined;
  /** Whether the registry was switched off (`providerStatus` PROVIDER_ERROR). */
  providerError = false;
  /** When the check completed (ms since the epoch); meaningful once `outcome` is set. */
  completedAt = 0;
  /** The schedule attached by `attachSchedule`, if any. */
  schedule: { scheduleId: string; nextRunAt: string } | undefined;

  constructor(
    /** Position in the store: the number behind both the request id and the result id. */
    readonly seq: number,
    readonly projectId: string,
    /** The request as parsed; replays are compared with it (409 when another body reuses the key). */
    readonly body: ValidationRequest,
    readonly provider: KnownProvider | null,
  ) {}

  get completed(): boolean {
    return this.outcome !== undefined;
  }
}

/** A recurring check. */
export interface StoredSchedule {
  projectId: string;
  scheduleId: string;
  nextRunAt: string;
  request: ScheduleRequest;
}

/**
 * Ids made from a record's position: a random UUID-shaped prefix per store (new at each reset) and
 * the position in hex as the last group, so ids look like the service's and are unique per run.
 */
class IdCodec {
  private readonly prefix: string;

  constructor(kind: string) {
    this.prefix = `${kind}_${randomUUID().slice(0, 24)}`;
  }

  format(seq: number): string {
    return this.prefix + seq.toString(16).padStart(12, '0');
  }

  /** The position of an id of this store, or undefined. */
  parse(id: string): number | undefined {
    if (id.length !== this.prefix.length + 12 || !id.startsWith(this.prefix)) return undefined;
    const tail = id.slice(this.prefix.length);
    return /^[0-9a-f]{12}$/.test(tail) ? Number.parseInt(tail, 16) : undefined;
  }
}

/** Everything the tax-validation API keeps; emptied by the admin reset. */
export class TaxStore {
  readonly providerModes = new Map<string, ProviderMode>();
  /** Every accepted request, by position (`seq`). */
  records: ValidationRecord[] = [];
  /** Per project, by idempotency key (the body's own string). */
  idempotency = new Map<string, Map<string, ValidationRecord>>();
  /** Normalized identifiers (`CC:value`) stored per project with a plan limit, counted against it. */
  identifiers = new Map<string, Set<string>>();
  /** By scheduleId. */
  schedules = new Map<string, StoredSchedule>();
  private requestIds = new IdCodec('valreq');
  private resultIds = new IdCodec('valres');

  constructor(readonly state: ServerState) {
    state.onReset(() => {
      this.providerModes.clear();
      this.records = [];
      this.idempotency = new Map();
      this.identifiers = new Map();
      this.schedules = new Map();
      this.requestIds = new IdCodec('valreq');
      this.resultIds = new IdCodec('valres');
    });
  }

  /** Stores a new request; returns its record. */
  add(projectId: string, body: ValidationRequest, provider: KnownProvider | null): ValidationRecord {
    const record = new ValidationRecord(this.records.length, projectId, body, provider);
    this.records.push(record);
    if (body.idempotencyKey !== undefined) {
      let keys = this.idempotency.get(projectId);
      if (!keys) {
        keys = new Map();
        this.idempotency.set(projectId, keys);
      }
      keys.set(body.idempotencyKey, record);
    }
    return record;
  }

  /** The record stored under a project's idempotency key. */
  byIdempotencyKey(projectId: string, key: string): ValidationRecord | undefined {
    return this.idempotency.get(projectId)?.get(key);
  }

  /** The completed record of a result id. */
  byResultId(id: string): ValidationRecord | undefined {
    const seq = this.resultIds.parse(id);
    const record = seq === undefined ? undefined : this.records[seq];
    return record?.completed ? record : undefined;
  }

  requestId(record: ValidationRecord): string {
    return this.requestIds.format(record.seq);
  }

  /** The result id of a completed record. */
  resultId(record: ValidationRecord): string | undefined {
    return record.completed ? this.resultIds.format(record.seq) : undefined;
  }
}
