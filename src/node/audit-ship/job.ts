import { SvcError } from '../../core/errors/error-classes.js';
import { resolveDestination } from './destination.js';
import type { ShipAuditOptions, ShipReceipt } from './options.js';

export type {
  ShipAuditOptions,
  ShipCounts,
  ShipCredentials,
  ShipKind,
  ShipProgress,
  ShipReceipt,
} from './options.js';

/** A whole number option in its bounds, else a `config` error naming it. */
function checkWhole(value: number | undefined, name: string, min: number, max: number): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new SvcError(`${name} must be a whole number from ${min} to ${max}, got ${value}`, 'config');
}

/**
 * Sends the events of an archive written by `syncAuditArchive` (a folder or
 * `s3://bucket/prefix`), whole or a range, to Elasticsearch, OpenSearch (`_bulk`, each event a
 * `create` with its id as `_id`) or a Splunk HTTP Event Collector, and returns a receipt:
 * `sent` = created + already there + dead-lettered, over every run of this destination's
 * checkpoint, against `archived`, the archive's events in the range (`complete` when equal).
 *
 * Each file is checked against its manifest as it is read (a changed archive is an `SvcError`
 * code `io`, nothing of that file sent). Documents refused for now (429, 5xx, HEC's "server is
 * busy", the network) are sent again with backoff; refused for good (another 4xx) they go to the
 * dead-letter file with the reason; a 409 to `create` counts as already there. The checkpoint
 * (`ship-<id>.json`, one per kind, URL and index) lives in the archive, so the same call on any
 * machine goes on where the last one stopped, even after a `kill -9`: what followed the last
 * checkpoint is sent again and comes back as already there (HEC, which has no ids, may store such
 * events twice). The archive code and the transport load at the first call.
 *
 * @throws {SvcError} code `config` at the call for a bad destination, index, credentials or
 *   range; `ship_auth` when the destination refuses the credentials; `ship_gave_up` when
 *   documents were still refused for now after `retryForMs`; `CheckpointError` for a checkpoint
 *   of another format or range (`restart` starts over); `AbortError` when `signal` fired. The
 *   checkpoint is saved in every case.
 * @example
 * const receipt = await shipAuditArchive('audit/', {
 *   dest: 'https://es.example.com:9200',
 *   kind: 'elasticsearch',
 *   credentials: { apiKey: process.env.ES_API_KEY },
 * });
 * if (!receipt.complete || receipt.deadLettered > 0) process.exitCode = 1;
 */
export async function shipAuditArchive(dir: string, options: ShipAuditOptions): Promise<ShipReceipt> {
  resolveDestination(options);
  checkWhole(options.batchEvents, 'batchEvents', 1, 100_000);
  checkWhole(options.maxBatchBytes, 'maxBatchBytes', 1024, 1024 ** 3);
  for (const [name, value] of [
    ['from', options.from],
    ['to', options.to],
  ] as const)
    if (value !== undefined && Number.isNaN(Date.parse(value)))
      throw new SvcError(`${name} is not an ISO 8601 timestamp: ${value}`, 'config');
  if (
    options.from !== undefined &&
    options.to !== undefined &&
    Date.parse(options.from) > Date.parse(options.to)
  )
    throw new SvcError(`from (${options.from}) lies after to (${options.to})`, 'config');
  const { shipArchive } = await import('./ship.js');
  return shipArchive(dir, options);
}
