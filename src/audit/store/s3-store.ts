import { SvcError } from '../../core/errors/error-classes.js';
import type { ArchiveStore } from './archive-store.js';
import type { ArchiveStoreOptions } from './s3-settings.js';

/** A bucket archive: not built yet. */
export async function openS3Store(location: string, _options: ArchiveStoreOptions): Promise<ArchiveStore> {
  throw new SvcError(`${location}: bucket archives are not supported yet`, 'config');
}
