// The names of an archive's layout, in one place: what sync writes, what the stores lock and
// write through, what verify and copy recognise. A name read back from an archive (a listing,
// a manifest) is untrusted: the forms here are the only ones accepted.

/** A run number as the layout's names hold it: at least six digits (`000001`). */
export const runDigits = (run: number): string => String(run).padStart(6, '0');

/** Name of an archive's sync state (a file in a folder, an object in a bucket). */
export const SYNC_STATE_FILE = 'sync-state.json';

/** Name of a ship's checkpoint for one destination (`svc audit ship`): `ship-` and 16 hex digits of the destination's digest. */
export const shipStateName = (id: string): string => `ship-${id}.json`;

/** The names {@link shipStateName} makes. */
export const SHIP_STATE_NAME = /^ship-[0-9a-f]{16}\.json$/;

/**
 * Name of a push spool object (`svc audit receive`): one accepted batch's new events, written once,
 * named by the `occurredAt` span of its events (ms since the epoch, 13 digits each) and 16 hex
 * digits of the sha256 of its bytes (a receiver's salted per write): `push-1764547200000-1764547260000-0123456789abcdef.ndjson`.
 * A sync reconciles it with the pull API and removes it.
 */
export const pushSpoolName = (fromMs: number, toMs: number, digest: string): string =>
  `push-${String(fromMs).padStart(13, '0')}-${String(toMs).padStart(13, '0')}-${digest}.ndjson`;

/** The names {@link pushSpoolName} makes. */
export const PUSH_SPOOL_NAME = /^push-(\d{13})-(\d{13})-[0-9a-f]{16}\.ndjson$/;

/** Name of the lock a sync holds in its archive (a file or an object) while it runs. */
export const LOCK_FILE = 'sync.lock';

/** Held (created exclusively) by the one process taking over a stale folder lock, for the few calls it takes. */
export const TAKEOVER_FILE = 'sync.lock.takeover';

/** Suffix of the temporary files of an atomic write; a file with it is never part of the archive. */
export const TMP_SUFFIX = '.svc-tmp';

/** Where a folder archive's run keeps its export and the export's state until the run is finished. */
export const FOLDER_WORK_DIR = '.sync-work';

/** A bucket archive's own work folder under the user's work root, from a digest of its location. */
export const bucketWorkDirName = (locationId: string): string => `svc-sync-${locationId}`;

/**
 * The files of run `run` in the work folder: its export's part (`run-000001.ndjson`), that
 * export's state and the conflicts gathered while the run's objects are written.
 */
export const workFileNames = (run: number): { part: string; state: string; conflicts: string } => {
  const base = `run-${runDigits(run)}`;
  return { part: `${base}.ndjson`, state: `${base}.state.json`, conflicts: `${base}.conflicts.ndjson` };
};

/** `manifest-000001.json` for run 1. */
export const manifestName = (run: number): string => `manifest-${runDigits(run)}.json`;

/** `conflicts-000001.ndjson` for run 1: events whose id the archive holds with other content. */
export const conflictsName = (run: number): string => `conflicts-${runDigits(run)}.ndjson`;

/** `audit-000001.ndjson` (or `.ndjson.gz`) for run 1. */
export const dataFileName = (run: number, gzip: boolean): string =>
  `audit-${runDigits(run)}.ndjson${gzip ? '.gz' : ''}`;

/** The names {@link manifestName} makes. */
export const MANIFEST_NAME = /^manifest-(\d{6,})\.json$/;

/** The names {@link dataFileName} and {@link conflictsName} make. */
export const LISTED_FILE_NAME = /^(?:audit-\d{6,}\.ndjson(?:\.gz)?|conflicts-\d{6,}\.ndjson)$/;

/**
 * Longest name an archive's object may have: a push spool object's 56 characters (a run's names
 * hold up to 31 digits in as many). Any folder (255 bytes a name) and any bucket key under a
 * prefix of up to 968 bytes (S3 keys: 1024) can hold it.
 */
const MAX_OBJECT_NAME = 56;

/** Whether `name` is a plain file name (no folder part, not `.` or `..`): names from a manifest are untrusted. */
export const isPlainName = (name: string): boolean =>
  name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);

/**
 * Whether `name` is one an archive's layout gives an object: a manifest (`manifest-000001.json`),
 * a data file (`audit-000001.ndjson`, `audit-000001.ndjson.gz`), a conflicts file
 * (`conflicts-000001.ndjson`), the state (`sync-state.json`), a ship's checkpoint
 * (`ship-0123456789abcdef.json`) or a push spool object ({@link pushSpoolName}). Every other name
 * (a key, `.env`, `.bashrc`, `CON`, a temporary `*.svc-tmp`, a name with `\\` or a control
 * character, one over 56 characters) is not an archive's: `svc audit copy` leaves it, named.
 */
export const isArchiveObjectName = (name: string): boolean =>
  name.length <= MAX_OBJECT_NAME &&
  (name === SYNC_STATE_FILE ||
    MANIFEST_NAME.test(name) ||
    LISTED_FILE_NAME.test(name) ||
    SHIP_STATE_NAME.test(name) ||
    PUSH_SPOOL_NAME.test(name));

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
