import { GetObjectRetentionCommand, type S3Client } from '@aws-sdk/client-s3';
import { SvcError } from '../../core/errors/error-classes.js';
import type { ObjectRetention } from './archive-store.js';

// Object Lock retention as a bucket archive reads it: of one object (`verify --require-retention`)
// and of the probe a run writes with `--retain-days`, read back to be sure the store kept it.

/** The answers to GetObjectRetention that mean the object has none. */
const NO_RETENTION = new Set([
  'NoSuchObjectLockConfiguration',
  'ObjectLockConfigurationNotFoundError',
  'InvalidRequest',
  'NotImplemented',
]);

/** What a write asked the store to keep. */
export interface AskedRetention {
  mode: ObjectRetention['mode'];
  until: Date;
  /** `retainDays`, for the message. */
  days: number;
}

/**
 * GetObjectRetention of `key` (of its version `versionId` when given): null when it has none (no
 * retention on it, no Object Lock on the bucket, or none in the store at all); rejects with the
 * SDK's error otherwise.
 */
export async function getRetention(
  client: S3Client,
  bucket: string,
  key: string,
  versionId?: string,
): Promise<ObjectRetention | null> {
  try {
    const answer = await client.send(
      new GetObjectRetentionCommand({ Bucket: bucket, Key: key, ...(versionId && { VersionId: versionId }) }),
    );
    const mode = answer.Retention?.Mode;
    const until = answer.Retention?.RetainUntilDate;
    if ((mode !== 'GOVERNANCE' && mode !== 'COMPLIANCE') || !until) return null;
    return { mode, until: until.toISOString() };
  } catch (error) {
    if (NO_RETENTION.has((error as { name?: string }).name ?? '')) return null;
    throw error;
  }
}

/** Up to this much earlier counts as the date asked: a store may keep whole seconds only. */
const DATE_SLACK_MS = 1000;

/**
 * What the store kept instead of `asked`, in words, or undefined when it kept it: the same mode
 * and a date no earlier (a later date is the bucket's longer default, which protects more).
 */
export function retentionShortfall(asked: AskedRetention, kept: ObjectRetention | null): string | undefined {
  if (kept === null) return 'it reports no retention on an object written with it';
  const until = Date.parse(kept.until);
  if (kept.mode !== asked.mode) return `it kept mode ${kept.mode}, not ${asked.mode}`;
  if (!(until >= asked.until.getTime() - DATE_SLACK_MS))
    return `it kept ${kept.mode} until ${kept.until}, not until ${asked.until.toISOString()}`;
  return undefined;
}

/**
 * The line of a store that did not keep the retention asked for (`io`, exit 1), said before any
 * object of the archive was written.
 */
export function retentionNotKept(location: string, asked: AskedRetention, shortfall: string): SvcError {
  return new SvcError(
    `${location}: the store did not keep the Object Lock retention asked for (--retain-days ${asked.days}, ${asked.mode}): ${shortfall}, so nothing in this archive would be write-once; nothing was written. Use a bucket with Object Lock on a store that supports it, or run without --retain-days`,
    'io',
  );
}
