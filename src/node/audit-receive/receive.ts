import type { AuditReceiver, AuditReceiverOptions } from './options.js';

export type { AuditReceiver, AuditReceiverOptions, PushReport, ReceiverHealth } from './options.js';
export { DEFAULT_RECEIVE_MAX_BODY_BYTES, RECEIVE_HEALTH_PATH } from './options.js';

/**
 * Receives the audit log's push variant into an archive (a folder or `s3://bucket/prefix`): an
 * HTTP server on `host:port` (default `127.0.0.1` and a free port) that takes POSTs of one event
 * object, a JSON array or NDJSON, plain or gzip, on any path.
 *
 * - **Checks.** With `secrets`, a push must carry a Standard Webhooks signature by one of them
 *   over the body as sent, its timestamp within `toleranceSeconds`; with `bearer`, an
 *   `Authorization: Bearer` secret. Refusals are 401 with the reason. Off loopback one of the two
 *   is required. Requests from a browser (an `Origin` header) and, on loopback, under a foreign
 *   `Host` are 403.
 * - **Durable before 2xx.** The events the archive does not hold yet (by id and bytes: the spool,
 *   the last sync's overlap window, writes in flight) are written as one spool object
 *   (`push-<from>-<to>-<digest>.ndjson`, named by their `occurredAt` span) and only then is the
 *   push answered 200 `{received, spooled, duplicates}`. A store that fails is a 503 with
 *   `Retry-After`.
 * - **Bounds.** A body over `maxBodyBytes` as sent or once inflated is a 413; a malformed one a
 *   400; an unknown `Content-Encoding` a 415.
 * - **Handshakes.** A test delivery (`{"test": true}`) is answered 200 and writes nothing; Okta's
 *   verification GET is answered with its challenge. `GET /healthz` answers {@link ReceiverHealth}.
 *
 * `syncAuditArchive` over the same archive reconciles the spool with the pull API and removes it.
 *
 * @throws {SvcError} code `config` for a malformed secret, a non-loopback host without a secret,
 *   or a bad bound; `bad_archive` when a spool object of the archive is not one a receiver wrote.
 * @example
 * const receiver = await startAuditReceiver({ dir: './audit', secrets: [process.env.SVC_PUSH_SECRET!] });
 * console.log(`push to ${receiver.url}`);
 */
export async function startAuditReceiver(options: AuditReceiverOptions): Promise<AuditReceiver> {
  // Loaded on use: the server and the archive code are not on the import path of svc-sdk/node.
  const { startReceiver } = await import('./server.js');
  return startReceiver(options);
}
