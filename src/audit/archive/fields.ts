import * as z from 'zod/mini';
import { lazySchema } from '../../core/lazy-schema.js';
import { timestamp } from '../../core/schema.js';

// The names and times a sync archive's manifests and state hold. An archive is read back from
// disk, where anyone may have edited it: each field must have the form sync writes, so a value
// that is not one (a path, an escape sequence, a script) never reaches the verify's checks or a
// terminal.

const pad = (run: number) => String(run).padStart(6, '0');

/** Name of an archive's sync state (a file in a folder, an object in a bucket). */
export const SYNC_STATE_FILE = 'sync-state.json';

/** `manifest-000001.json` for run 1. */
export const manifestName = (run: number): string => `manifest-${pad(run)}.json`;

/** `conflicts-000001.ndjson` for run 1: events whose id the archive holds with other content. */
export const conflictsName = (run: number): string => `conflicts-${pad(run)}.ndjson`;

/** `audit-000001.ndjson` (or `.ndjson.gz`) for run 1. */
export const dataFileName = (run: number, gzip: boolean): string =>
  `audit-${pad(run)}.ndjson${gzip ? '.gz' : ''}`;

/** The names {@link manifestName} makes. */
const MANIFEST_NAME = /^manifest-(\d{6,})\.json$/;

/** The names {@link dataFileName} and {@link conflictsName} make. */
const LISTED_FILE_NAME = /^(?:audit-\d{6,}\.ndjson(?:\.gz)?|conflicts-\d{6,}\.ndjson)$/;

/** `run3.late1`, `run3.retention`, `run3.conflicts`: the gap ids `archive/gaps.ts` gives. */
const GAP_ID = /^run\d+\.(?:retention|late\d+|conflicts)$/;

/**
 * Longest name an archive's object may have: `conflicts-` and `.ndjson` around a run number of up
 * to 31 digits. Any folder (255 bytes a name) and any bucket key under a prefix of up to 960 bytes
 * (S3 keys: 1024) can hold it.
 */
const MAX_OBJECT_NAME = 48;

/**
 * Whether `name` is one an archive's layout gives an object: a manifest (`manifest-000001.json`),
 * a data file (`audit-000001.ndjson`, `audit-000001.ndjson.gz`), a conflicts file
 * (`conflicts-000001.ndjson`) or the state (`sync-state.json`). Every other name (a key, `.env`,
 * `.bashrc`, `CON`, a temporary `*.svc-tmp`, a name with `\\` or a control character, one over
 * 48 characters) is not an archive's: `svc audit copy` leaves it, named.
 */
export const isArchiveObjectName = (name: string): boolean =>
  name.length <= MAX_OBJECT_NAME &&
  (name === SYNC_STATE_FILE || MANIFEST_NAME.test(name) || LISTED_FILE_NAME.test(name));

/**
 * The highest run number a manifest name may hold: 2^53 - 1 (`Number.MAX_SAFE_INTEGER`), the
 * last number a name still reads back as exactly (past it two names would read as one run). A
 * name of the manifest form with a larger number is not one of the chain's: `verify` reports it
 * ({@link isOverRunCap}), gaps, sync and backfill leave it out.
 */
export const MAX_RUN = Number.MAX_SAFE_INTEGER;

/** The run number of a manifest file name, or undefined when it is not one (or past {@link MAX_RUN}). */
export function manifestRun(name: string): number | undefined {
  const match = MANIFEST_NAME.exec(name);
  if (!match) return undefined;
  const run = Number(match[1]);
  return run <= MAX_RUN ? run : undefined;
}

/** Whether `name` has the form of a manifest name but a run number past {@link MAX_RUN}. */
export const isOverRunCap = (name: string): boolean =>
  MANIFEST_NAME.test(name) && manifestRun(name) === undefined;

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

/** A sha256 digest in lower-case hex. */
export const Sha256Hex = lazySchema(() =>
  z.string().check(z.regex(/^[0-9a-f]{64}$/, { error: 'must be a sha256 in 64 lower-case hex digits' })),
);

/** A gap id: `run3.late1`, `run3.retention` or `run3.conflicts`. */
export const GapId = lazySchema(() =>
  z.string().check(z.regex(GAP_ID, { error: 'must be a gap id such as run3.late1' })),
);
