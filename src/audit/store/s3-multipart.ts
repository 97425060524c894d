import { ListMultipartUploadsCommand, type S3Client } from '@aws-sdk/client-s3';

/** A multipart upload that was started and neither completed nor aborted (a killed run's data). */
export interface UnfinishedUpload {
  key: string;
  id: string;
  initiated: Date | undefined;
}

/**
 * The unfinished multipart uploads of the archive at `archivePrefix` (its own level only: another
 * archive may live under a longer prefix), all pages of ListMultipartUploads.
 */
export async function listUnfinishedUploads(
  client: S3Client,
  bucket: string,
  archivePrefix: string,
  fault: (error: unknown) => Error,
): Promise<UnfinishedUpload[]> {
  const prefix = archivePrefix === '' ? '' : `${archivePrefix}/`;
  const found: UnfinishedUpload[] = [];
  let keyMarker: string | undefined;
  let idMarker: string | undefined;
  for (;;) {
    const page = await client
      .send(
        new ListMultipartUploadsCommand({
          Bucket: bucket,
          Prefix: prefix,
          ...(keyMarker && { KeyMarker: keyMarker }),
          ...(idMarker && { UploadIdMarker: idMarker }),
        }),
      )
      .catch((error: unknown) => {
        throw fault(error);
      });
    for (const upload of page.Uploads ?? []) {
      const key = upload.Key ?? '';
      // Only this archive's own level: another archive may live under a longer prefix.
      if (upload.UploadId && !key.slice(prefix.length).includes('/'))
        found.push({ key, id: upload.UploadId, initiated: upload.Initiated });
    }
    if (!page.IsTruncated) return found;
    keyMarker = page.NextKeyMarker;
    idMarker = page.NextUploadIdMarker;
  }
}
