import { S3Client } from '@aws-sdk/client-s3';
import type { ArchiveStore } from './archive-store.js';
import { s3Debug } from './s3-debug.js';
import { parseS3Location } from './s3-location.js';
import { type ArchiveStoreOptions, DEFAULT_S3_MAX_ATTEMPTS } from './s3-settings.js';
import { S3Store } from './s3-store.js';

// The client a bucket archive is opened with, loaded by open-store.ts only for an `s3://` archive
// (the AWS SDK is an optional peer dependency).

/** Opens an `s3://bucket/prefix` archive with the AWS SDK's default credential chain. */
export function openS3Store(location: string, options: ArchiveStoreOptions): ArchiveStore {
  const settings = options.s3 ?? {};
  parseS3Location(location);
  const client = new S3Client({
    ...(settings.region && { region: settings.region }),
    ...(settings.credentials && { credentials: settings.credentials }),
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    forcePathStyle: settings.pathStyle ?? settings.endpoint !== undefined,
    retryMode: 'standard',
    maxAttempts: settings.maxAttempts ?? DEFAULT_S3_MAX_ATTEMPTS,
  });
  if (settings.debug) s3Debug(client, settings.debug);
  return new S3Store(location, client, settings, options.workDir);
}
