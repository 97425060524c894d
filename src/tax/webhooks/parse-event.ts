import { toIssues } from '../../core/zod-issues.js';
import {
  type ManualReviewRequiredEvent as ManualReviewRequired,
  ManualReviewRequiredEventSchema,
  type ValidationCompletedEvent as ValidationCompleted,
  ValidationCompletedEventSchema,
} from './event-schemas.js';

/** An event type this version does not know; kept as received. */
export interface UnknownWebhookEvent {
  eventType: string;
  known: false;
  payload: Record<string, unknown>;
}

/** A parsed tax-validation webhook. Signing is not specified by the service, so nothing here claims to verify one. */
export type TaxWebhookEvent =
  | (ValidationCompleted & { known: true })
  | (ManualReviewRequired & { known: true })
  | UnknownWebhookEvent;

/** Why a webhook body was not accepted. */
export class WebhookPayloadError extends Error {
  override name = 'WebhookPayloadError';
}

/**
 * Parses a webhook body (a JSON string, a Buffer, or an already parsed object) into a typed
 * event. Unknown event types are returned as `{ known: false }`, not thrown; a known type with a
 * malformed payload, or a body that is not a JSON object with `eventType`, throws
 * {@link WebhookPayloadError}.
 */
export function parseWebhookEvent(body: string | Uint8Array | unknown): TaxWebhookEvent {
  let value: unknown = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    try {
      value = JSON.parse(text);
    } catch {
      throw new WebhookPayloadError('webhook body is not JSON');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new WebhookPayloadError('webhook body is not a JSON object');
  const eventType = (value as { eventType?: unknown }).eventType;
  if (typeof eventType !== 'string') throw new WebhookPayloadError('webhook body has no eventType');
  const schema =
    eventType === 'taxvalidation.validation.manual-review-required'
      ? ManualReviewRequiredEventSchema
      : eventType === 'taxvalidation.validation.completed' || eventType === 'taxvalidation.validation.invalid'
        ? ValidationCompletedEventSchema
        : undefined;
  if (!schema) return { eventType, known: false, payload: value as Record<string, unknown> };
  const parsed = schema().safeParse(value);
  if (!parsed.success) {
    const issue = toIssues(parsed.error)[0];
    throw new WebhookPayloadError(`invalid ${eventType} payload: ${issue?.path} ${issue?.message}`);
  }
  return { ...parsed.data, known: true } as TaxWebhookEvent;
}
