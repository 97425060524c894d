import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { sendS3Error, xmlEscape } from './s3-xml.js';

/**
 * Object Lock as S3 keeps it, for the test server (s3rver has none): a bucket created with
 * `x-amz-bucket-object-lock-enabled: true` takes retention on its writes
 * (`x-amz-object-lock-mode` and `-retain-until-date` on PutObject or CreateMultipartUpload) and
 * answers GetObjectRetention; any other bucket refuses those headers with S3's InvalidRequest.
 * Retention is kept in memory, by bucket and key, for the server's lifetime.
 *
 * With `ignored`, a store that has no Object Lock and drops the headers it does not know (as some
 * S3-compatible stores do): every write is accepted, nothing kept, and GetObjectRetention answers
 * 501 NotImplemented.
 */
export class ObjectLockStandIn {
  private readonly lockedBuckets = new Set<string>();
  private readonly retention = new Map<string, { mode: string; until: string }>();

  constructor(private readonly mode: 'kept' | 'ignored' = 'kept') {}

  /** CreateBucket: remembers a bucket created with Object Lock. */
  bucketCreated(bucket: string, headers: IncomingHttpHeaders): void {
    if (String(headers['x-amz-bucket-object-lock-enabled']).toLowerCase() === 'true')
      this.lockedBuckets.add(bucket);
  }

  /**
   * A write (PutObject, CreateMultipartUpload) that asks for retention: kept for the key, or
   * refused with InvalidRequest (true: the answer was sent) when the bucket has no Object Lock.
   */
  refusedWrite(res: ServerResponse, bucket: string, key: string, headers: IncomingHttpHeaders): boolean {
    const mode = headers['x-amz-object-lock-mode'];
    const until = headers['x-amz-object-lock-retain-until-date'];
    if (mode === undefined && until === undefined) return false;
    if (this.mode === 'ignored') return false;
    if (!this.lockedBuckets.has(bucket)) {
      sendS3Error(res, 400, 'InvalidRequest', 'Bucket is missing Object Lock Configuration');
      return true;
    }
    this.retention.set(`${bucket}/${key}`, {
      mode: String(mode),
      until: new Date(String(until)).toISOString(),
    });
    return false;
  }

  /** GetObjectRetention (`GET /bucket/key?retention`): the key's retention, or S3's error answers. */
  answerRetention(res: ServerResponse, bucket: string, key: string): void {
    if (this.mode === 'ignored') {
      sendS3Error(
        res,
        501,
        'NotImplemented',
        'A header you provided implies functionality that is not implemented',
      );
      return;
    }
    const kept = this.retention.get(`${bucket}/${key}`);
    if (!this.lockedBuckets.has(bucket)) {
      sendS3Error(res, 400, 'InvalidRequest', 'Bucket is missing Object Lock Configuration');
      return;
    }
    if (!kept) {
      sendS3Error(
        res,
        404,
        'NoSuchObjectLockConfiguration',
        'The specified object does not have a ObjectLock configuration',
      );
      return;
    }
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Retention xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Mode>${xmlEscape(kept.mode)}</Mode><RetainUntilDate>${kept.until}</RetainUntilDate></Retention>`;
    res.writeHead(200, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(xml) });
    res.end(xml);
  }
}
