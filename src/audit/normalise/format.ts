import type { AuditEvent } from '../schemas.js';
import { type NormaliseOptions, toEcs } from './ecs.js';
import { toOcsf } from './ocsf.js';

/** How events are written: `raw` as received (the archived line), `ecs` or `ocsf` normalised. */
export type AuditEventFormat = 'raw' | 'ecs' | 'ocsf';

/** The formats, as `--format` takes them. */
export const AUDIT_EVENT_FORMATS: readonly AuditEventFormat[] = ['raw', 'ecs', 'ocsf'];

/** An event in `format` (`raw`: the event itself), ready to be written as JSON. */
export function formatEvent(
  format: AuditEventFormat,
  event: AuditEvent,
  options: NormaliseOptions = {},
): object {
  if (format === 'ecs') return toEcs(event, options);
  if (format === 'ocsf') return toOcsf(event, options);
  return event;
}
