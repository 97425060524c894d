import { ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';
import { AbortError } from '../../core/errors/error-classes.js';
import { ListingGuard } from './list-pages.js';

/** A multipart upload that was started and neither completed nor aborted (a killed run's data). */
export interface UnfinishedUpload {
  key: string;
  id: string;
  initiated: Date | undefined;
}

/**
 * The unfinished multipart uploads of the archive at `archive.prefix` (its own level only: another
 * archive may live under a longer prefix), all pages of ListMultipartUploads, bounded as
 * {@link ListingGuard} says (`archive.location` names the store in its line).
 */
export async function listUnfinishedUploads(
  client: S3Client,
  bucket: string,
  archive: {
    /** The archive's prefix in the bucket ('' for its root). */
    prefix: string;
    /** Its `s3://` URL, for messages. */
    location: string;
    /** Stops the listing with an `AbortError` once fired. */
    signal: AbortSignal | undefined;
  },
  fault: (error: unknown) => Error,
): Promise<UnfinishedUpload[]> {
  const archivePrefix = archive.prefix;
  const prefix = archivePrefix === '' ? '' : `${archivePrefix}/`;
  const found: UnfinishedUpload[] = [];
  let keyMarker: string | undefined;
  let idMarker: string | undefined;
  const guard = new ListingGuard(archive.location, 'ListMultipartUploads', archive.signal);
  for (;;) {
    const page = await client
      .send(
        new ListMultipartUploadsCommand({
          Bucket: bucket,
          Prefix: prefix,
          ...(keyMarker && { KeyMarker: keyMarker }),
          ...(idMarker && { UploadIdMarker: idMarker }),
        }),
        { ...(archive.signal && { abortSignal: archive.signal }) },
      )
      .catch((error: unknown) => {
        if (archive.signal?.aborted) throw new AbortError('The listing was interrupted');
        throw fault(error);
      });
    for (const upload of page.Uploads ?? []) {
      const key = upload.Key ?? '';
      // Only this archive's own level: another archive may live under a longer prefix.
      if (upload.UploadId && !key.slice(prefix.length).includes('/'))
        found.push({ key, id: upload.UploadId, initiated: upload.Initiated });
    }
    // The marker pair is the continuation token of this listing.
    const next = guard.next(
      page.IsTruncated,
      page.NextKeyMarker === undefined
        ? undefined
        : `${page.NextKeyMarker}\0${page.NextUploadIdMarker ?? ''}`,
      found.length,
    );
    if (next === undefined) return found;
    keyMarker = page.NextKeyMarker;
    idMarker = page.NextUploadIdMarker;
  }
}
