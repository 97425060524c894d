import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { xmlEscape } from './s3-xml.js';

/**
 * The multipart uploads s3rver 3.7.1 holds, read from its own files: it keeps each unfinished
 * upload in `<dir>/<bucket>/._S3rver_uploads/<uploadId>/` (a `key` file and the parts) and deletes
 * that folder on completion. Reading it (rather than counting requests) keeps the truth in one
 * place, also across a restart of the wrapper on the same folder.
 */
export interface PendingUpload {
  key: string;
  uploadId: string;
  initiated: Date;
}

/** The folder of one upload; uploadId is checked first so it cannot walk out of the folder. */
function uploadDir(root: string, bucket: string, uploadId: string): string {
  return join(root, bucket, '._S3rver_uploads', uploadId);
}

/** True when `uploadId` is a name s3rver could have made (32 hex digits). */
export function isUploadId(uploadId: string): boolean {
  return /^[0-9a-f]{32}$/.test(uploadId);
}

/** Every unfinished upload of `bucket`, sorted as S3 lists them (key, then upload id). */
export async function pendingUploads(root: string, bucket: string): Promise<PendingUpload[]> {
  let ids: string[];
  try {
    ids = await readdir(join(root, bucket, '._S3rver_uploads'));
  } catch {
    return [];
  }
  const uploads: PendingUpload[] = [];
  for (const uploadId of ids.filter(isUploadId)) {
    try {
      const keyFile = join(uploadDir(root, bucket, uploadId), 'key');
      const [key, info] = await Promise.all([readFile(keyFile, 'utf8'), stat(keyFile)]);
      uploads.push({ key, uploadId, initiated: info.mtime });
    } catch {
      // completed or aborted while listing
    }
  }
  return uploads.sort((a, b) => (a.key === b.key ? cmp(a.uploadId, b.uploadId) : cmp(a.key, b.key)));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The upload `uploadId` of `bucket` when it is unfinished and belongs to `key`. */
export async function findUpload(
  root: string,
  bucket: string,
  key: string,
  uploadId: string,
): Promise<PendingUpload | undefined> {
  if (!isUploadId(uploadId)) return undefined;
  const found = (await pendingUploads(root, bucket)).find((u) => u.uploadId === uploadId);
  return found?.key === key ? found : undefined;
}

/** Drops an upload's parts, as AbortMultipartUpload does. */
export async function abortUpload(root: string, bucket: string, uploadId: string): Promise<void> {
  if (!isUploadId(uploadId)) return;
  await rm(uploadDir(root, bucket, uploadId), { recursive: true, force: true });
}

/**
 * The ListMultipartUploads answer for `query` (prefix, key-marker, upload-id-marker, max-uploads,
 * encoding-type); `delimiter` grouping is not implemented (the archive code does not use it).
 */
export function listUploadsXml(bucket: string, all: PendingUpload[], query: URLSearchParams): string {
  const prefix = query.get('prefix') ?? '';
  const keyMarker = query.get('key-marker') ?? '';
  const idMarker = query.get('upload-id-marker') ?? '';
  const max = Math.min(1000, Math.max(0, Number(query.get('max-uploads') ?? 1000) || 0));
  const urlEncode = query.get('encoding-type') === 'url';
  const enc = (s: string) => xmlEscape(urlEncode ? encodeURIComponent(s).replace(/%2F/g, '/') : s);
  const after = all.filter(
    (u) =>
      u.key.startsWith(prefix) &&
      (keyMarker === '' ||
        u.key > keyMarker ||
        (u.key === keyMarker && idMarker !== '' && u.uploadId > idMarker)),
  );
  const page = after.slice(0, max);
  const truncated = after.length > page.length;
  const last = page[page.length - 1];
  const owner = '<ID>123456789000</ID><DisplayName>S3rver</DisplayName>';
  const uploads = page
    .map(
      (u) =>
        `<Upload><Key>${enc(u.key)}</Key><UploadId>${u.uploadId}</UploadId>` +
        `<Initiator>${owner}</Initiator><Owner>${owner}</Owner><StorageClass>STANDARD</StorageClass>` +
        `<Initiated>${u.initiated.toISOString()}</Initiated></Upload>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
    `<Bucket>${xmlEscape(bucket)}</Bucket><KeyMarker>${enc(keyMarker)}</KeyMarker>` +
    `<UploadIdMarker>${xmlEscape(idMarker)}</UploadIdMarker>` +
    `<NextKeyMarker>${truncated && last ? enc(last.key) : ''}</NextKeyMarker>` +
    `<NextUploadIdMarker>${truncated && last ? last.uploadId : ''}</NextUploadIdMarker>` +
    `<Prefix>${enc(prefix)}</Prefix><MaxUploads>${max}</MaxUploads>` +
    (urlEncode ? '<EncodingType>url</EncodingType>' : '') +
    `<IsTruncated>${truncated}</IsTruncated>${uploads}</ListMultipartUploadsResult>`
  );
}
