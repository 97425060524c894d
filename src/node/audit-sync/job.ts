import { type AuditClient, auditJobAccess } from '../../audit/client.js';
import { DEFAULT_RETRY_FOR_MS } from '../../core/patience.js';
import { exportAuditEvents } from '../audit-export/job.js';
import type { SyncOptions, SyncResult } from './options.js';

/**
 * One incremental run into an archive (a folder or an `s3://` bucket): everything new since the
 * previous run, to the server's now minus a lag, as one NDJSON file and one hash-chained
 * manifest; see {@link SyncOptions}. A bucket's requests take the client's proxy and CA unless
 * `s3` names its own. Node only (`svc-sdk/node`); `audit` is a client's `client.audit`.
 *
 * @example
 * const run = await syncAuditArchive(client.audit, { dir: 'audit-archive', gzip: true });
 * if (run.retentionGap || run.lateEvents.length > 0) console.warn('the archive is not whole');
 */
export async function syncAuditArchive(audit: AuditClient, options: SyncOptions): Promise<SyncResult> {
  const { proxy, ca } = auditJobAccess(audit).network;
  const s3 = { ...(proxy !== undefined && { proxy }), ...(ca && { ca }), ...options.s3 };
  // Every read of the run (probes, the export) is patient alike.
  const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
  // Loaded at the call, like the exporter it drives.
  const { runSync } = await import('./sync.js');
  return runSync(
    {
      listEvents: (params, o) => audit.listEvents(params, { ...o, retryForMs }),
      exportEvents: (o) => exportAuditEvents(audit, { ...o, retryForMs }),
    },
    { ...options, s3 },
  );
}
