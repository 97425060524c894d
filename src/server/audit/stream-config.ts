import * as z from 'zod/mini';
import { webhookSecretKey } from '../../audit/push/secrets.js';
import { HttpProblem } from '../problem.js';
import { ownerOf, parseAdminInput, ScopeFields } from './admin.js';
import type { AuditOwner } from './templates.js';

/** Whether `secret` is `whsec_` and a base64 key, as the push receiver (src/audit/push) reads secrets. */
function isWebhookSecret(secret: string): boolean {
  try {
    return webhookSecretKey(secret).length > 0;
  } catch {
    return false;
  }
}

/** Body member `faults` of `POST /__admin/audit-streams`: how the push is made lossy. */
export const StreamFaultsBody = z.strictObject({
  /** Share of events sent a second time, in a later batch, 0 to 1. Default 0. */
  duplicateRate: z._default(z.number().check(z.gte(0)).check(z.lte(1)), 0),
  /** Shuffle the events of each recording across its batches. Default false. */
  reorder: z._default(z.boolean(), false),
  /** Share of events never pushed (the pull API still has them), 0 to 1. Default 0. */
  dropRate: z._default(z.number().check(z.gte(0)).check(z.lte(1)), 0),
  /** Wait before each request (retries too), ms, 0 to 60,000. Default 0. */
  delayMs: z._default(z.number().check(z.int()).check(z.gte(0)).check(z.lte(60_000)), 0),
  /** Seed of the drop, duplicate and reorder draws: the same seed and recordings give the same batches. Default 1. */
  seed: z._default(z.number().check(z.int()), 1),
});

/** Body of `POST /__admin/audit-streams`. */
export const AuditStreamBody = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).check(z.maxLength(2048)),
  format: z._default(z.enum(['single', 'array', 'ndjson']), 'ndjson'),
  gzip: z._default(z.boolean(), false),
  batchSize: z.optional(z.number().check(z.int()).check(z.gte(1)).check(z.lte(10_000))),
  secret: z
    .string()
    .check(z.maxLength(256))
    .check(z.startsWith('whsec_'))
    .check(z.refine(isWebhookSecret, 'must be whsec_ and a base64 key')),
  ...ScopeFields,
  faults: z.optional(StreamFaultsBody),
});

/**
 * `POST /__admin/audit-streams`: push every event recorded for the owner from now on.
 *
 * @example
 * { url: 'http://127.0.0.1:8787/audit', format: 'ndjson', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }
 */
export type CreateAuditStream = z.input<typeof AuditStreamBody>;

/** What a stream was made with (its secret is kept, never listed). */
export interface AuditStreamConfig {
  url: string;
  /** `single`: one event object per request; `array`: a JSON array; `ndjson`: one event per line. */
  format: 'single' | 'array' | 'ndjson';
  gzip: boolean;
  /** Events per request: 1 for `single`, else as given (default 100). */
  batchSize: number;
  secret: string;
  owner: AuditOwner;
  faults: z.output<typeof StreamFaultsBody>;
}

/** The faults of a stream made without any: none. */
const NO_FAULTS = StreamFaultsBody.parse({});

/** Checks a body of `POST /__admin/audit-streams`; `HttpProblem` 422 names every failing field. */
export function parseStreamConfig(raw: unknown): AuditStreamConfig {
  const body = parseAdminInput(AuditStreamBody, raw);
  if (body.format === 'single' && body.batchSize !== undefined && body.batchSize !== 1)
    throw new HttpProblem(422, 'Invalid admin request: format single sends one event per request', [
      { path: 'batchSize', message: 'format single sends one event per request: leave batchSize out' },
    ]);
  return {
    url: body.url,
    format: body.format,
    gzip: body.gzip,
    batchSize: body.format === 'single' ? 1 : (body.batchSize ?? 100),
    secret: body.secret,
    owner: ownerOf(body),
    faults: body.faults ?? NO_FAULTS,
  };
}
