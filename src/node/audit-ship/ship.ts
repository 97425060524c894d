import { AbortError, SvcError } from '../../core/errors/error-classes.js';
import { DEFAULT_RETRY_FOR_MS } from '../../core/patience.js';
import { backoffDelay } from '../../core/retry.js';
import type { ArchiveReadFooter } from '../audit-search/footer.js';
import { type Entry, entriesOf } from './entries.js';
import { DEFAULT_SHIP_BATCH_EVENTS, type ShipAuditOptions, type ShipReceipt } from './options.js';
import { openShip, type ShipSetup } from './setup.js';
import { wait } from './wait.js';

/** The checkpoint is written at most this often (and at the end, and when the run stops). */
const CHECKPOINT_EVERY_MS = 1000;

/** Longest wait a `Retry-After` may ask between two rounds, ms. */
const MAX_RETRY_AFTER_MS = 60_000;

type Entries = ReturnType<typeof entriesOf>;

/**
 * The implementation of `shipAuditArchive` (job.ts loads it at the first call). The events of the
 * range are read as `searchAuditArchive` reads them (each file checked against its manifest) and
 * sent in rounds of up to `batchEvents` documents: first those the destination refused for now,
 * oldest first, then new ones. Outcomes are committed in the archive's order (ledger.ts), so the
 * checkpoint is a prefix per data file and a run killed anywhere sends again at most what followed
 * its last checkpoint, which comes back as "already there". A round whose documents were mostly
 * refused for now waits (backoff, `Retry-After`); one document refused for now for longer than
 * `retryForMs` ends the run with the checkpoint saved.
 */
export async function shipArchive(dir: string, options: ShipAuditOptions): Promise<ShipReceipt> {
  const setup = await openShip(dir, options);
  const { ledger } = setup;
  const entries = entriesOf(setup.search, ledger.state, setup.checkpointName);
  try {
    await sendAll(setup, entries, options);
    await ledger.checkpoint();
  } catch (error) {
    // What is committed is kept, whatever stopped the run.
    await ledger.checkpoint().catch(() => {});
    if (options.signal?.aborted && !(error instanceof AbortError))
      throw new AbortError('the ship was interrupted', { cause: error });
    throw error;
  } finally {
    await entries.close();
    await ledger.close();
    await setup.close();
  }
  return receiptOf(dir, setup, setup.search.footer);
}

/** Rounds until every event of the range has its outcome. */
async function sendAll(setup: ShipSetup, entries: Entries, options: ShipAuditOptions): Promise<void> {
  const { ledger, sender } = setup;
  const now = options.now ?? Date.now;
  const batchEvents = options.batchEvents ?? DEFAULT_SHIP_BATCH_EVENTS;
  // Entries read ahead of the oldest one still refused, at most: past it, rounds send only those.
  const maxOpen = batchEvents * 10;
  let waiting: Entry[] = [];
  let idleRounds = 0;
  let lastCheckpoint = now();
  for (;;) {
    if (options.signal?.aborted) throw new AbortError('the ship was interrupted');
    const round = waiting.slice(0, batchEvents);
    waiting = waiting.slice(round.length);
    while (round.length < batchEvents && ledger.open < maxOpen) {
      const entry = await entries.next();
      if (!entry) break;
      ledger.add(entry);
      round.push(entry);
    }
    if (round.length === 0) return;
    const { refused, settled } = await sendRound(setup, round, options, now);
    waiting = [...refused, ...waiting];
    await ledger.commit();
    options.onProgress?.({
      created: ledger.state.created,
      alreadyThere: ledger.state.alreadyThere,
      deadLettered: ledger.state.deadLettered,
      requests: sender.requests,
      retrying: waiting.length,
    });
    idleRounds = settled < refused.length ? idleRounds + 1 : 0;
    if (waiting.length > 0) await pace(setup, waiting, idleRounds, options, now);
    if (now() - lastCheckpoint >= CHECKPOINT_EVERY_MS) {
      await ledger.checkpoint();
      lastCheckpoint = now();
    }
  }
}

/** Sends one round and records each entry's outcome; the entries refused for now, and how many got one for good. */
async function sendRound(
  { ledger, sender }: ShipSetup,
  round: Entry[],
  options: ShipAuditOptions,
  now: () => number,
): Promise<{ refused: Entry[]; settled: number }> {
  const outcomes = await sender.send(
    round.map((entry) => entry.doc),
    options.signal,
  );
  const refused: Entry[] = [];
  outcomes.forEach((outcome, k) => {
    const entry = round[k] as Entry;
    if (outcome.kind !== 'retry') {
      entry.outcome = outcome;
      return;
    }
    entry.refusedSince ??= now();
    entry.lastReason = outcome.reason;
    entry.retryAfterMs = outcome.retryAfterMs;
    refused.push(entry);
  });
  ledger.thisRun.retried += refused.length;
  ledger.thisRun.requests = sender.requests;
  return { refused, settled: round.length - refused.length };
}

/**
 * Between rounds with documents refused for now: gives up (`ship_gave_up`) when one has been
 * refused for longer than `retryForMs`; waits when the last round was mostly refused (an
 * overloaded destination): its `Retry-After`, else the backoff of `idleRounds` such rounds.
 */
async function pace(
  setup: ShipSetup,
  waiting: readonly Entry[],
  idleRounds: number,
  options: ShipAuditOptions,
  now: () => number,
): Promise<void> {
  let oldest = Number.POSITIVE_INFINITY;
  let retryAfter = 0;
  for (const entry of waiting) {
    oldest = Math.min(oldest, entry.refusedSince as number);
    retryAfter = Math.max(retryAfter, entry.retryAfterMs ?? 0);
  }
  const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
  if (now() - oldest > retryForMs)
    throw new SvcError(
      `${setup.destination.base} still refuses ${waiting.length} documents after ${Math.round(retryForMs / 1000)} s (${(waiting[0] as Entry).lastReason})`,
      'ship_gave_up',
    );
  if (idleRounds === 0) return;
  const delay =
    retryAfter > 0
      ? Math.min(retryAfter, MAX_RETRY_AFTER_MS)
      : backoffDelay(idleRounds, undefined, options.backoff);
  await (options.sleep ?? wait)(delay, options.signal);
}

function receiptOf(dir: string, setup: ShipSetup, footer: ArchiveReadFooter | undefined): ShipReceipt {
  const { destination, ledger } = setup;
  const { state } = ledger;
  const archived = footer?.events ?? 0;
  const sent = state.created + state.alreadyThere + state.deadLettered;
  return {
    destination: destination.base,
    kind: destination.kind,
    index: destination.index,
    format: state.format,
    archive: dir,
    head: footer?.head ?? null,
    range: footer?.range ?? null,
    whole: footer?.whole ?? false,
    incomplete: footer?.incomplete ?? [],
    archived,
    created: state.created,
    alreadyThere: state.alreadyThere,
    deadLettered: state.deadLettered,
    sent,
    complete: sent === archived,
    thisRun: { ...ledger.thisRun },
    deadLetterFile: ledger.deadLetterFile,
    checkpoint: setup.checkpointName,
  };
}
