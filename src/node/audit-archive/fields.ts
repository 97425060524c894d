import * as z from 'zod/mini';
import { lazySchema } from '../../core/lazy-schema.js';
import { timestamp } from '../../core/schema.js';
import { LISTED_FILE_NAME, MANIFEST_NAME, PUSH_SPOOL_NAME } from '../audit-store/layout.js';

// The forms of the names and times a sync archive's manifests and state hold (the names are
// made in store/layout.ts). An archive is read back from disk, where anyone may have edited it:
// each field must have the form sync writes, so a value that is not one (a path, an escape
// sequence, a script) never reaches the verify's checks or a terminal.

/** `run3.late1`, `run3.retention`, `run3.conflicts`: the gap ids `archive/gaps.ts` gives. */
const GAP_ID = /^run\d+\.(?:retention|late\d+|conflicts)$/;

/** A time an archive records: ISO 8601 with a zone, as sync writes it (`2026-01-31T00:00:00.000Z`). */
export const ArchiveStamp = lazySchema(() => timestamp());

/** The name of a manifest: `manifest-000001.json`. */
export const ManifestFileName = lazySchema(() =>
  z.string().check(z.regex(MANIFEST_NAME, { error: 'must be a manifest name such as manifest-000001.json' })),
);

/** The name of a file a manifest lists: `audit-000001.ndjson`, `audit-000001.ndjson.gz` or `conflicts-000001.ndjson`. */
export const ListedFileName = lazySchema(() =>
  z.string().check(
    z.regex(LISTED_FILE_NAME, {
      error: 'must be a data file name such as audit-000001.ndjson or conflicts-000001.ndjson',
    }),
  ),
);

/** The name of a push spool object: `push-1764547200000-1764547260000-0123456789abcdef.ndjson`. */
export const PushSpoolFileName = lazySchema(() =>
  z.string().check(
    z.regex(PUSH_SPOOL_NAME, {
      error: 'must be a push spool object name such as push-<13 digits>-<13 digits>-<16 hex>.ndjson',
    }),
  ),
);

/** A sha256 digest in lower-case hex. */
export const Sha256Hex = lazySchema(() =>
  z.string().check(z.regex(/^[0-9a-f]{64}$/, { error: 'must be a sha256 in 64 lower-case hex digits' })),
);

/** A gap id: `run3.late1`, `run3.retention` or `run3.conflicts`. */
export const GapId = lazySchema(() =>
  z.string().check(z.regex(GAP_ID, { error: 'must be a gap id such as run3.late1' })),
);
