import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import * as z from 'zod/mini';
import { SvcError } from '../../core/errors/error-classes.js';
import { lazySchema } from '../../core/lazy-schema.js';
import type { KeyObjectLike } from '../../core/node-shapes.js';
import { toIssues } from '../../core/zod-issues.js';
import {
  ArchiveStamp,
  GapId,
  ListedFileName,
  ManifestFileName,
  PushSpoolFileName,
  Sha256Hex,
} from './fields.js';
import { ArchiveHoleSchema } from './state.js';

/** One data file of a run. */
export const ManifestFileSchema = lazySchema(() =>
  z.object({
    name: ListedFileName(),
    bytes: z.number().check(z.int()).check(z.gte(0)),
    sha256: Sha256Hex(),
    /** Events (lines) in the file. */
    events: z.number().check(z.int()).check(z.gte(0)),
    /** `occurredAt` of the file's first line (the newest event) and of its last line; null when empty. */
    firstOccurredAt: z.nullable(ArchiveStamp()),
    lastOccurredAt: z.nullable(ArchiveStamp()),
  }),
);
/** One data file of a run. */
export type ManifestFile = z.infer<ReturnType<typeof ManifestFileSchema>>;

const count = () => z.number().check(z.int()).check(z.gte(0));

/** What a run found comparing the push spool with the pull API (see {@link ManifestSchema}'s `push`). */
export const PushReconcileSchema = lazySchema(() =>
  z.object({
    /** Pushed events read from the spool up to the run's end (copies of one event each counted): confirmed + unconfirmed + differing. */
    pushed: count(),
    /** Of them, returned by the pull API with the same content (late ones: held by the archive's window). */
    confirmed: count(),
    /** Events this run wrote that no push had delivered: fetched from the pull API. */
    fetched: count(),
    /** Pushed events the pull API did not return (late ones: not in the archive's window): kept apart. */
    unconfirmed: count(),
    /** Pushed events the pull API returned with other content: the pushed copy kept apart. */
    differing: count(),
    /** Of the pushed events, those older than the run's query range (pushed after an earlier run had covered their time). */
    late: count(),
    /**
     * Pushed events older than the archive's start (its first run's `from`, as `--since` set it):
     * not part of the archive, not in `pushed`, not kept.
     */
    outside: count(),
    /**
     * The oldest `occurredAt` of the pushed copies kept apart (a late one may lie before the run's
     * query), null when none was: the run's conflict gap starts there.
     */
    keptFrom: z.nullable(ArchiveStamp()),
    /** Spool objects the run read whole: removed once the manifest is written. */
    objects: z.array(PushSpoolFileName()),
    /** Spool objects written with the events of read objects that lie after the run's end, for the next run. */
    carried: z.array(PushSpoolFileName()),
  }),
);
/** What a run found comparing the push spool with the pull API. */
export type PushReconcile = z.infer<ReturnType<typeof PushReconcileSchema>>;

/**
 * The manifest of one sync run, written last. `range` is what the run covers (after `from`, up to
 * and including `to`; the first run includes `from`); consecutive runs' ranges meet.
 */
export const ManifestSchema = lazySchema(() =>
  z.object({
    version: z.literal(1),
    run: z.number().check(z.int()).check(z.gt(0)),
    range: z.object({ from: ArchiveStamp(), to: ArchiveStamp() }),
    /** The range asked from the API: the run's range plus the overlap before it. */
    query: z.object({ from: ArchiveStamp(), to: ArchiveStamp() }),
    serverNow: ArchiveStamp(),
    files: z.array(ManifestFileSchema()),
    /** The API's `totalElements` for `query`. */
    totalElements: z.nullable(z.number().check(z.int()).check(z.gte(0))),
    /** Events of `query` that earlier runs had archived already (not written again). */
    alreadyArchived: z.number().check(z.int()).check(z.gte(0)),
    /** Whether the events written plus those already archived equal `totalElements`. */
    countMatches: z.boolean(),
    /** Set when events may have passed the plan's retention before any run archived them. */
    retentionGap: z.nullable(ArchiveHoleSchema()),
    /** Earlier runs' ranges holding more events at the API than in the archive (arrived after the overlap). */
    lateEvents: z.array(ArchiveHoleSchema()),
    /** `backfill`: a run that fetched recorded gaps again (its `range` is a gap's, outside the chain of ranges). Absent: a regular run. */
    kind: z.optional(z.enum(['backfill'])),
    /** Ids of the gaps (`run3.late1`) this backfill repaired: every event the API holds in them is archived. */
    repairs: z.optional(z.array(GapId())),
    /** Gaps acknowledged with `svc audit gaps ack` since the previous manifest, with the reason given. */
    acknowledged: z.optional(z.array(z.object({ gap: GapId(), reason: z.string(), at: ArchiveStamp() }))),
    /** Events the API returned outside `query` (not written). */
    outOfRange: z.optional(z.number().check(z.int()).check(z.gte(0))),
    /** Events whose id the archive holds with other content: kept apart in this file, never in a data file. */
    conflicts: z.optional(z.nullable(ManifestFileSchema())),
    /**
     * The push spool this run reconciled with the pull API (`svc audit receive`); absent when
     * the archive had none. Pushed events the pull API did not return, or returned with other
     * content, are kept in the run's conflicts file, never in a data file.
     */
    push: z.optional(PushReconcileSchema()),
    /** The previous manifest's file name and sha256 of its bytes; null for the first run. */
    previous: z.nullable(z.object({ name: ManifestFileName(), sha256: Sha256Hex() })),
    /** Ed25519 signature (base64) of the manifest's JSON without this field. */
    signature: z.optional(z.string()),
  }),
);
/**
 * The manifest of one sync run, written last. `range` is what the run covers (after `from`, up to
 * and including `to`; the first run includes `from`); consecutive runs' ranges meet.
 */
export type Manifest = z.infer<ReturnType<typeof ManifestSchema>>;

/** A manifest file read: the JSON as written (for the signature) and the manifest; or why it is not one. */
export type ParsedManifest =
  | { ok: true; raw: Record<string, unknown>; manifest: Manifest }
  | { ok: false; reason: string };

/**
 * Parses the text of a manifest file. When it is not a manifest sync writes, `reason` names the
 * first field that breaks a rule (`lateEvents.0.from: must be an ISO 8601 timestamp with a zone`):
 * a field path and a rule, never the value, which may be anything an editor put there.
 */
export function parseManifest(text: string): ParsedManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  const parsed = ManifestSchema().safeParse(raw);
  if (parsed.success) {
    const twice = listedTwice(parsed.data);
    if (twice !== undefined) return { ok: false, reason: `files: lists ${twice} more than once` };
    return { ok: true, raw: raw as Record<string, unknown>, manifest: parsed.data };
  }
  const [first] = toIssues(parsed.error);
  return { ok: false, reason: first?.path ? `${first.path}: ${first.message}` : 'not a manifest object' };
}

/**
 * The first file a manifest lists twice (its data files and its conflicts file together), if any:
 * a run writes each file once, so a repeated name only inflates the counts and the reads.
 */
function listedTwice(manifest: Manifest): string | undefined {
  const seen = new Set<string>();
  for (const file of [...manifest.files, ...(manifest.conflicts ? [manifest.conflicts] : [])]) {
    if (seen.has(file.name)) return file.name;
    seen.add(file.name);
  }
  return undefined;
}

/** The text that is signed: the manifest without its signature, as written. */
const signedText = (body: Omit<Manifest, 'signature'>) => JSON.stringify(body, null, 2);

/** A private key from PEM text (or a key object); an error that never shows the key. */
export function loadPrivateKey(key: string | KeyObjectLike): KeyObject {
  try {
    // A key of another kind (a Web Crypto CryptoKey) has no asymmetricKeyType: refused below.
    const object = typeof key === 'string' ? createPrivateKey(key) : (key as KeyObject);
    if (object.asymmetricKeyType !== 'ed25519') throw new Error('not ed25519');
    return object;
  } catch {
    throw new SvcError('The signing key is not an Ed25519 private key in PEM', 'config');
  }
}

/** A public key from PEM text (or a key object); private keys give their public half. */
export function loadPublicKey(key: string | KeyObjectLike): KeyObject {
  try {
    const object = typeof key === 'string' ? createPublicKey(key) : (key as KeyObject);
    const pub = object.type === 'private' ? createPublicKey(object) : object;
    if (pub.asymmetricKeyType !== 'ed25519') throw new Error('not ed25519');
    return pub;
  } catch {
    throw new SvcError('The public key is not an Ed25519 key in PEM', 'config');
  }
}

/**
 * The bytes of a manifest file, signed when a key is given (Ed25519 signatures are deterministic).
 * The body must pass the rules {@link parseManifest} reads with: a run never writes a manifest that
 * `verify` would refuse (e.g. an event time without a zone from a server that breaks the API's
 * format); it fails instead, an `SvcError` with code `bad_archive`, before the manifest exists.
 */
export function serializeManifest(body: Omit<Manifest, 'signature'>, key?: KeyObject): string {
  const checked = ManifestSchema().safeParse(body);
  if (!checked.success) {
    const [first] = toIssues(checked.error);
    throw new SvcError(
      `Manifest of run ${body.run} not written: ${first?.path ?? ''}: ${first?.message ?? 'invalid'} (a value the API returned breaks its documented format)`,
      'bad_archive',
    );
  }
  if (!key) return `${signedText(body)}\n`;
  const signature = sign(null, Buffer.from(signedText(body)), key).toString('base64');
  return `${JSON.stringify({ ...body, signature }, null, 2)}\n`;
}

/**
 * Whether a manifest's signature was made by the private half of `key`. Takes the manifest as
 * parsed from its file (`JSON.parse`, keys in file order), not a schema's copy.
 */
export function signatureValid(raw: Record<string, unknown>, key: KeyObject): boolean {
  const { signature, ...body } = raw;
  if (typeof signature !== 'string') return false;
  return verify(null, Buffer.from(JSON.stringify(body, null, 2)), key, Buffer.from(signature, 'base64'));
}
