import { SvcError } from '../../core/errors/error-classes.js';

/** An archive's place in a bucket. */
export interface S3Location {
  bucket: string;
  /** Key prefix without a trailing `/`; empty for the bucket's top. */
  prefix: string;
}

/** Bucket names as S3 allows them (3 to 63 lower-case letters, digits, dots and hyphens). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A prefix segment: no empty segment, no `.` or `..`, no control character. */
const SEGMENT = /^(?!\.{1,2}$)[^\p{Cc}\\]+$/u;

/**
 * `s3://bucket/prefix/` as bucket and prefix; a `config` SvcError for anything else (another
 * scheme, a bucket name S3 refuses, an empty, `.` or `..` segment, a control character).
 */
export function parseS3Location(location: string): S3Location {
  const match = /^s3:\/\/([^/]*)\/?(.*)$/i.exec(location);
  const bucket = match?.[1] ?? '';
  const prefix = (match?.[2] ?? '').replace(/\/+$/, '');
  const bad = (why: string) =>
    new SvcError(
      `${JSON.stringify(location)} is not an archive in a bucket: ${why} (s3://BUCKET/PREFIX)`,
      'config',
    );
  if (!match) throw bad('it does not start with s3://');
  if (!BUCKET.test(bucket))
    throw bad('the bucket name must be 3 to 63 lower-case letters, digits, dots or hyphens');
  if (prefix !== '' && !prefix.split('/').every((segment) => SEGMENT.test(segment)))
    throw bad('each part of the prefix must be a name, not empty, . or ..');
  if (prefix.length > 900) throw bad('the prefix is longer than 900 characters');
  return { bucket, prefix };
}
