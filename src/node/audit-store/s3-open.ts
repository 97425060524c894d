import { S3Client } from '@aws-sdk/client-s3';
import type { ArchiveStore } from './archive-store.js';
import { s3Debug } from './s3-debug.js';
import { parseS3Location } from './s3-location.js';
import { s3Network } from './s3-network.js';
import { type ArchiveStoreOptions, DEFAULT_S3_MAX_ATTEMPTS } from './s3-settings.js';
import { S3Store } from './s3-store.js';

// The client a bucket archive is opened with, loaded by open-store.ts only for an `s3://` archive
// (the AWS SDK is an optional peer dependency).

/**
 * Opens an `s3://bucket/prefix` archive with the AWS SDK's default credential chain, its requests
 * through the proxy and with the CA of the settings (s3-network.ts).
 */
export function openS3Store(location: string, options: ArchiveStoreOptions): ArchiveStore {
  const settings = options.s3 ?? {};
  const { bucket } = parseS3Location(location);
  const network = s3Network(settings, bucket);
  const client = new S3Client({
    ...(settings.region && { region: settings.region }),
    ...(settings.credentials && { credentials: settings.credentials }),
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    forcePathStyle: settings.pathStyle ?? settings.endpoint !== undefined,
    retryMode: 'standard',
    maxAttempts: settings.maxAttempts ?? DEFAULT_S3_MAX_ATTEMPTS,
    requestHandler: network.requestHandler,
  });
  if (settings.debug) s3Debug(client, settings.debug);
  return new S3Store(location, client, settings, options.workDir, network.route);
}
