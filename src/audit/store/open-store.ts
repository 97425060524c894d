import type { ArchiveStore } from './archive-store.js';
import { FolderStore } from './folder-store.js';
import type { ArchiveStoreOptions } from './s3-settings.js';

/** Whether an archive location names a bucket (`s3://bucket/prefix`) rather than a folder. */
export const isBucketLocation = (location: string): boolean => /^s3:\/\//i.test(location);

/**
 * The store of an archive location: an `s3://bucket/prefix` URL is a bucket (the AWS SDK loads
 * here, at the first such call), anything else a folder path.
 */
export async function openArchiveStore(
  location: string,
  options: ArchiveStoreOptions = {},
): Promise<ArchiveStore> {
  if (!isBucketLocation(location))
    return new FolderStore(location, options.fileMode === undefined ? {} : { fileMode: options.fileMode });
  const { openS3Store } = await import('./s3-store.js');
  return openS3Store(location, options);
}
