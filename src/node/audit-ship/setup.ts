import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CheckpointError } from '../../core/errors/error-classes.js';
import type { Transport } from '../../core/transport/types.js';
import { type ArchiveSearch, searchArchive } from '../audit-search/archive-search.js';
import type { ArchiveStore } from '../audit-store/archive-store.js';
import { shipStateName } from '../audit-store/layout.js';
import { openArchiveStore } from '../audit-store/open-store.js';
import { DurableOutput } from '../fs/output-file.js';
import { createDefaultTransport } from '../transport/default.js';
import { bulkSender } from './bulk-sender.js';
import { type ResolvedDestination, resolveDestination } from './destination.js';
import { hecSender } from './hec-sender.js';
import { ShipLedger } from './ledger.js';
import { DEFAULT_HEC_BATCH_BYTES, DEFAULT_SHIP_BATCH_BYTES, type ShipAuditOptions } from './options.js';
import type { SenderSettings, ShipSender } from './sender.js';
import { readShipState, type ShipState, shipId } from './state.js';
import { wait } from './wait.js';

/** What a ship run works with, once its options, checkpoint and archive are checked. */
export interface ShipSetup {
  destination: ResolvedDestination;
  store: ArchiveStore;
  /** The checkpoint object, as messages name it. */
  checkpointName: string;
  ledger: ShipLedger;
  sender: ShipSender;
  search: ArchiveSearch;
  /** Closes what the setup opened (the transport it made). */
  close(): Promise<void>;
}

/**
 * Resolves the destination, reads its checkpoint from the archive (none with `restart`; one of
 * another format or range is a `CheckpointError`), opens the dead-letter file the checkpoint names
 * where it still is, and makes the sender and the archive search.
 */
export async function openShip(dir: string, options: ShipAuditOptions): Promise<ShipSetup> {
  const destination = resolveDestination(options);
  const now = options.now ?? Date.now;
  const store = await openArchiveStore(dir, options);
  const id = shipId({ kind: destination.kind, destination: destination.base, index: destination.index });
  const checkpointName = store.describe(shipStateName(id));
  const previous = options.restart ? undefined : await readShipState(store, id);
  const state = previous ?? freshState(destination, options, now);
  if (previous) checkSameShip(previous, askedOf(destination, options), checkpointName);
  const deadLetterPath = deadLetterOf(options.deadLetter, previous, id);
  // The checkpoint's dead-letter file where it still is: cut back to what the checkpoint counted
  // (a killed run's later lines are written again). Elsewhere (another machine, another path),
  // this run's dead letters start a file of their own; the counts stay the checkpoint's.
  const recorded = state.deadLetter;
  const deadLetter =
    recorded && recorded.path === deadLetterPath && (await isFile(deadLetterPath))
      ? await DurableOutput.open(deadLetterPath, recorded.bytes)
      : undefined;
  const ledger = new ShipLedger(state, store, id, deadLetterPath, deadLetter, options.restart === true, now);
  const own = options.transport
    ? undefined
    : createDefaultTransport({ proxy: options.proxy, ca: options.ca });
  const sender = senderOf(destination, options, (options.transport ?? own) as Transport);
  const search = searchArchive(
    dir,
    {
      ...(options.from !== undefined && { from: options.from }),
      ...(options.to !== undefined && { to: options.to }),
      ...(options.signal && { signal: options.signal }),
    },
    store,
  );
  return { destination, store, checkpointName, ledger, sender, search, close: async () => own?.close?.() };
}

/** The format and range a run asks for, as a checkpoint records them. */
function askedOf(
  destination: ResolvedDestination,
  options: ShipAuditOptions,
): Pick<ShipState, 'format' | 'keepOriginal' | 'from' | 'to'> {
  return {
    format: options.format ?? (destination.kind === 'splunk-hec' ? 'raw' : 'ecs'),
    keepOriginal: options.keepOriginal ?? false,
    from: options.from ?? null,
    to: options.to ?? null,
  };
}

function freshState(
  destination: ResolvedDestination,
  options: ShipAuditOptions,
  now: () => number,
): ShipState {
  return {
    version: 1,
    kind: destination.kind,
    destination: destination.base,
    index: destination.index,
    ...askedOf(destination, options),
    files: {},
    created: 0,
    alreadyThere: 0,
    deadLettered: 0,
    deadLetter: null,
    updatedAt: new Date(now()).toISOString(),
  };
}

function senderOf(
  destination: ResolvedDestination,
  options: ShipAuditOptions,
  transport: Transport,
): ShipSender {
  const hec = destination.kind === 'splunk-hec';
  const settings: SenderSettings = {
    base: destination.base,
    transport,
    headers: destination.headers,
    maxBatchBytes: options.maxBatchBytes ?? (hec ? DEFAULT_HEC_BATCH_BYTES : DEFAULT_SHIP_BATCH_BYTES),
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  if (!hec) return bulkSender(settings, destination.index as string);
  return hecSender(settings, {
    index: destination.index,
    sourcetype: options.sourcetype ?? 'svc:audit',
    ack: options.ack ?? false,
    sleep: options.sleep ?? wait,
    ...(options.backoff && { backoff: options.backoff }),
  });
}

/** The dead-letter file: as asked, else the checkpoint's, else one named for the checkpoint in the working folder. */
function deadLetterOf(asked: string | undefined, previous: ShipState | undefined, id: string): string {
  if (asked !== undefined) return resolve(asked);
  return previous?.deadLetter?.path ?? resolve(`svc-ship-${id}.dead-letter.ndjson`);
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** A checkpoint of the same destination for another format or range is not this run's to go on from. */
function checkSameShip(
  state: ShipState,
  asked: Pick<ShipState, 'format' | 'keepOriginal' | 'from' | 'to'>,
  name: string,
): void {
  const differs: string[] = [];
  if (state.format !== asked.format) differs.push(`format ${state.format}`);
  if (state.keepOriginal !== asked.keepOriginal)
    differs.push(state.keepOriginal ? 'keep-original' : 'no keep-original');
  if (state.from !== asked.from) differs.push(`from ${state.from ?? '(archive start)'}`);
  if (state.to !== asked.to) differs.push(`to ${state.to ?? '(archive head)'}`);
  if (differs.length > 0)
    throw new CheckpointError(
      `${name} is of a ship with ${differs.join(', ')}: ship with the same options to go on, or --restart to start over`,
      'bad_state',
    );
}
