import { SvcError } from '../../core/errors/error-classes.js';
import type { ArchiveStore } from './archive-store.js';
import { FolderStore } from './folder-store.js';
import type { ArchiveStoreOptions } from './s3-settings.js';

/** Whether an archive location names a bucket (`s3://bucket/prefix`) rather than a folder. */
export const isBucketLocation = (location: string): boolean => /^s3:\/\//i.test(location);

/** A folder archive's path, undefined for a bucket (for checks that only mean something on local paths). */
export const localPath = (location: string): string | undefined =>
  isBucketLocation(location) ? undefined : location;

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
  let module: typeof import('./s3-open.js');
  try {
    module = await import('./s3-open.js');
  } catch (error) {
    // The AWS SDK is an optional peer dependency: installed only by those who keep archives in a bucket.
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && /@aws-sdk\//.test(String(error)))
      throw new SvcError(
        `${location}: archives in a bucket need the AWS SDK: npm install @aws-sdk/client-s3 @aws-sdk/lib-storage`,
        'config',
        { cause: error },
      );
    throw error;
  }
  return module.openS3Store(location, options);
}
