import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SvcError } from '../../core/errors/error-classes.js';
import { isPreconditionFailed } from './s3-faults.js';
import { type AskedRetention, getRetention, retentionNotKept, retentionShortfall } from './s3-retention.js';

// What a bucket archive learns about its store before its first write, with a probe object of
// its own (`.svc-probe-<uuid>` under the prefix, removed again): whether the store honours
// `If-None-Match: *`, and, with `--retain-days`, whether it keeps the Object Lock retention asked for.

/** What the probe needs of its store. */
export interface ProbeTarget {
  client: S3Client;
  bucket: string;
  /** The key of an object under the prefix: `name` is the probe's. */
  key(name: string): string;
  /** The archive (`s3://bucket/prefix`): errors name it, never the probe. */
  location: string;
  /** The retention every write asks for; undefined without `retainDays`. */
  retention: AskedRetention | undefined;
  /** The one line of a failed request on the archive (s3-faults.ts). */
  fault(error: unknown): Error;
}

/** What the probe found. */
export interface ProbeFindings {
  /** The store refused the second write of the probe with 412: write-once holds. */
  honoursIfNoneMatch: boolean;
}

/**
 * Writes a probe object with `If-None-Match: *` (and the retention asked for), reads its
 * retention back (GetObjectRetention of that version), writes it a second time (refused with 412
 * by a store that honours the header), and removes it. A store that did not keep the retention
 * stops here, before the archive's first object, with one `io` line; so does a failed request
 * (named by the archive's location).
 */
export async function probeS3Store(target: ProbeTarget): Promise<ProbeFindings> {
  const { client, bucket, retention } = target;
  const key = target.key(`.svc-probe-${randomUUID()}`);
  const put = (locked: boolean) =>
    client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: Buffer.from('probe\n'),
        IfNoneMatch: '*',
        ...(locked &&
          retention && { ObjectLockMode: retention.mode, ObjectLockRetainUntilDate: retention.until }),
      }),
    );
  let versionId: string | undefined;
  try {
    versionId = (await put(true)).VersionId;
  } catch (error) {
    // A retry of the first write whose answer was lost: the probe's key is this run's alone.
    if (!isPreconditionFailed(error)) throw target.fault(error);
  }
  let honoured = false;
  try {
    if (retention) await readBack(target, key, versionId, retention);
    try {
      await put(false);
    } catch (error) {
      if (!isPreconditionFailed(error)) throw target.fault(error);
      honoured = true;
    }
  } finally {
    await removeProbe(client, bucket, key, versionId, retention?.mode === 'GOVERNANCE', honoured);
  }
  return { honoursIfNoneMatch: honoured };
}

/** The retention of the probe's first version, compared with what was asked for. */
async function readBack(
  target: ProbeTarget,
  key: string,
  versionId: string | undefined,
  asked: AskedRetention,
): Promise<void> {
  let kept: Awaited<ReturnType<typeof getRetention>>;
  try {
    kept = await getRetention(target.client, target.bucket, key, versionId);
  } catch (error) {
    const fault = target.fault(error);
    const denied = (error as { name?: string }).name === 'AccessDenied';
    if (!denied) throw fault;
    throw new SvcError(
      `${target.location}: the credentials may not read Object Lock retention (s3:GetObjectRetention), which --retain-days needs to check that the store keeps it; nothing was written`,
      'io',
      { cause: error },
    );
  }
  const shortfall = retentionShortfall(asked, kept);
  if (shortfall) throw retentionNotKept(target.location, asked, shortfall);
}

/**
 * Removes the probe: its version, when the store named one (with `BypassGovernanceRetention` for
 * governance mode; refused without the permission, or in compliance mode, where it stays until
 * its date, hidden), then a plain DELETE when that did not remove it or a second version may be
 * there. Failures are let be: a leftover probe is harmless.
 */
async function removeProbe(
  client: S3Client,
  bucket: string,
  key: string,
  versionId: string | undefined,
  governance: boolean,
  honoured: boolean,
): Promise<void> {
  const removed =
    versionId !== undefined &&
    (await client
      .send(
        new DeleteObjectCommand({
          Bucket: bucket,
          Key: key,
          VersionId: versionId,
          ...(governance && { BypassGovernanceRetention: true }),
        }),
      )
      .then(
        () => true,
        () => false,
      ));
  if (removed && honoured) return;
  await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => {});
}
