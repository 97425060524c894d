import { type AuditClient, auditJobAccess } from '../../audit/client.js';
import { ListEventsParamsSchema } from '../../audit/query.js';
import { DEFAULT_RETRY_FOR_MS } from '../../core/patience.js';
import { parseRequest } from '../../core/schema.js';
import type { ExportOptions, ExportResult } from './export.js';

/**
 * Exports the range to NDJSON (optionally gzip), resumable through a state file: see
 * {@link ExportOptions}. Events are written exactly as received, newest first. Node only
 * (`svc-sdk/node`); `audit` is a client's `client.audit`.
 *
 * @example
 * const result = await exportAuditEvents(client.audit, { from, to, output: 'audit.ndjson', statePath: 'audit.state.json' });
 * if (!result.countMatches) console.warn('count differs from totalElements');
 */
export async function exportAuditEvents(audit: AuditClient, options: ExportOptions): Promise<ExportResult> {
  const { from, to, pageSize } = options;
  parseRequest(ListEventsParamsSchema(), { from, to, pageSize }, 'export options');
  const access = auditJobAccess(audit);
  const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
  // Loaded at the call: the exporter (node:fs, node:zlib, its page scanner) is no part of `import('svc-sdk/node')`.
  const { exportPages } = await import('./export.js');
  return exportPages(
    (query, signal, bodyBuffer) => access.rawPage(query, { signal, retryForMs }, bodyBuffer),
    options,
  );
}
