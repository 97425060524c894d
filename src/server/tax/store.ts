import type { ScheduleRequest } from '../../tax/request-schemas.js';
import type { ValidationResult } from '../../tax/response-schemas.js';
import type { ServerState } from '../state.js';

/** How a provider answers (admin `POST /__admin/providers/{provider}`). */
export type ProviderMode = 'sync' | 'async' | 'unavailable';

/** An accepted validation request. */
export interface StoredRequest {
  projectId: string;
  validationRequestId: string;
  /** Hash of the request body, to tell an idempotent replay from a reused key. */
  bodyHash: string;
  status: 'PENDING' | 'COMPLETED';
  validationResultId: string | undefined;
}

/** A completed result with the project that owns it. */
export type StoredResult = ValidationResult & { projectId: string };

/** A recurring check. */
export interface StoredSchedule {
  projectId: string;
  scheduleId: string;
  nextRunAt: string;
  request: ScheduleRequest;
}

/** Everything the tax-validation API keeps; emptied by the admin reset. */
export class TaxStore {
  readonly providerModes = new Map<string, ProviderMode>();
  /** By validationRequestId. */
  requests = new Map<string, StoredRequest>();
  /** By `projectId:idempotencyKey`. */
  idempotency = new Map<string, StoredRequest>();
  /** By validationResultId. */
  results = new Map<string, StoredResult>();
  /** Normalized identifiers (`CC:value`) stored per project, counted against the plan limit. */
  identifiers = new Map<string, Set<string>>();
  /** By scheduleId. */
  schedules = new Map<string, StoredSchedule>();

  constructor(readonly state: ServerState) {
    state.onReset(() => {
      this.providerModes.clear();
      this.requests = new Map();
      this.idempotency = new Map();
      this.results = new Map();
      this.identifiers = new Map();
      this.schedules = new Map();
    });
  }
}
