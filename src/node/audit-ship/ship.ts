import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatEvent } from '../../audit/normalise/format.js';
import { AbortError, CheckpointError, SvcError } from '../../core/errors/error-classes.js';
import { DEFAULT_RETRY_FOR_MS } from '../../core/patience.js';
import { backoffDelay } from '../../core/retry.js';
import type { Transport } from '../../core/transport/types.js';
import { type ArchiveMatch, searchArchive } from '../audit-search/archive-search.js';
import { shipStateName } from '../audit-store/layout.js';
import { openArchiveStore } from '../audit-store/open-store.js';
import { DurableOutput } from '../fs/output-file.js';
import { createDefaultTransport } from '../transport/default.js';
import { bulkSender } from './bulk-sender.js';
import { type ResolvedDestination, resolveDestination } from './destination.js';
import { hecSender } from './hec-sender.js';
import {
  DEFAULT_HEC_BATCH_BYTES,
  DEFAULT_SHIP_BATCH_BYTES,
  DEFAULT_SHIP_BATCH_EVENTS,
  type ShipAuditOptions,
  type ShipCounts,
  type ShipReceipt,
} from './options.js';
import { docText, type ItemOutcome, type SenderSettings, type ShipDoc, type ShipSender } from './sender.js';
import { readShipState, type ShipState, shipId, writeShipState } from './state.js';

/** The checkpoint is written at most this often (and at the end, and when the run stops). */
const CHECKPOINT_EVERY_MS = 1000;

/** One event of the range on its way: its document, its file, and what became of it. */
interface Entry {
  doc: ShipDoc;
  file: string;
  sha256: string;
  outcome?: Exclude<ItemOutcome, { kind: 'retry' }>;
  /** When it was first refused for now (a 429, a 5xx), ms. */
  refusedSince?: number;
  lastReason?: string;
  retryAfterMs?: number | undefined;
}

/**
 * The implementation of `shipAuditArchive` (job.ts loads it at the first call). The events of the
 * range are read as `searchAuditArchive` reads them (each file checked against its manifest) and
 * sent in rounds of up to `batchEvents` documents: first those the destination refused for now,
 * oldest first, then new ones. Outcomes are committed in the archive's order: a document counts
 * (and is written to the dead-letter file) only once every document before it has its outcome, so
 * the checkpoint is a prefix per data file, and a run killed anywhere sends again at most what
 * followed its last checkpoint, which comes back as "already there". A round whose documents were
 * mostly refused for now waits (backoff, `Retry-After`); one document refused for now for longer
 * than `retryForMs` ends the run with the checkpoint saved.
 */
export async function shipArchive(dir: string, options: ShipAuditOptions): Promise<ShipReceipt> {
  const destination = resolveDestination(options);
  const format = options.format ?? (destination.kind === 'splunk-hec' ? 'raw' : 'ecs');
  const keepOriginal = options.keepOriginal ?? false;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? wait;
  const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
  const batchEvents = options.batchEvents ?? DEFAULT_SHIP_BATCH_EVENTS;
  const store = await openArchiveStore(dir, options);
  const id = shipId({ kind: destination.kind, destination: destination.base, index: destination.index });
  const previous = options.restart ? undefined : await readShipState(store, id);
  const asked = { from: options.from ?? null, to: options.to ?? null };
  if (previous)
    checkSameShip(previous, { format, keepOriginal, ...asked }, store.describe(shipStateName(id)));
  const deadLetterPath = deadLetterOf(options.deadLetter, previous, id);
  const state: ShipState = previous ?? {
    version: 1,
    kind: destination.kind,
    destination: destination.base,
    index: destination.index,
    format,
    keepOriginal,
    ...asked,
    files: {},
    created: 0,
    alreadyThere: 0,
    deadLettered: 0,
    deadLetter: null,
    updatedAt: new Date(now()).toISOString(),
  };
  // The checkpoint's dead-letter file where it still is: cut back to what the checkpoint counted
  // (a killed run's later lines are written again). Elsewhere (another machine, another path),
  // this run's dead letters start a file of their own; the counts stay the checkpoint's.
  const recorded = state.deadLetter;
  let deadLetter =
    recorded && recorded.path === deadLetterPath && (await isFile(deadLetterPath))
      ? await DurableOutput.open(deadLetterPath, recorded.bytes)
      : undefined;
  const ownTransport = options.transport
    ? undefined
    : createDefaultTransport({ proxy: options.proxy, ca: options.ca });
  const sender = senderOf(destination, options, (options.transport ?? ownTransport) as Transport);
  const thisRun = { created: 0, alreadyThere: 0, deadLettered: 0, requests: 0, retried: 0 };
  const search = searchArchive(
    dir,
    {
      ...(options.from !== undefined && { from: options.from }),
      ...(options.to !== undefined && { to: options.to }),
      ...(options.signal && { signal: options.signal }),
    },
    store,
  );

  let lastCheckpoint = now();
  const checkpoint = async () => {
    if (deadLetter) state.deadLetter = { path: deadLetter.path, bytes: await deadLetter.sync() };
    state.updatedAt = new Date(now()).toISOString();
    await writeShipState(store, id, state);
    lastCheckpoint = now();
  };

  // The documents of the range in the archive's order, those done by earlier runs left out.
  const seen = new Map<string, number>();
  const reader = search[Symbol.asyncIterator]();
  let exhausted = false;
  const nextEntry = async (): Promise<Entry | undefined> => {
    while (!exhausted) {
      const step = await reader.next();
      if (step.done) {
        exhausted = true;
        return undefined;
      }
      const match = step.value;
      const count = (seen.get(match.file) ?? 0) + 1;
      seen.set(match.file, count);
      const done = state.files[match.file];
      if (done && done.sha256 !== match.fileSha256)
        throw new CheckpointError(
          `${store.describe(shipStateName(id))} names ${match.file} with another sha256: the archive was rebuilt since; --restart starts over`,
          'bad_state',
        );
      if (done && count <= done.done) continue;
      return { doc: docOf(match, format, keepOriginal), file: match.file, sha256: match.fileSha256 };
    }
    return undefined;
  };

  const window: Entry[] = [];
  let head = 0;
  let waiting: Entry[] = [];
  let idleRounds = 0;
  const maxWindow = batchEvents * 10;
  const commit = async () => {
    while (head < window.length && (window[head] as Entry).outcome) {
      const entry = window[head] as Entry;
      const outcome = entry.outcome as NonNullable<Entry['outcome']>;
      if (outcome.kind === 'created') count(state, thisRun, 'created');
      else if (outcome.kind === 'already') count(state, thisRun, 'alreadyThere');
      else {
        deadLetter ??= await DurableOutput.open(deadLetterPath, undefined, {
          force: options.restart === true,
        });
        await deadLetter.append(deadLine(entry, outcome));
        count(state, thisRun, 'deadLettered');
      }
      const file = state.files[entry.file];
      if (file) file.done += 1;
      else state.files[entry.file] = { sha256: entry.sha256, done: 1 };
      head += 1;
    }
    if (head > 0) {
      window.splice(0, head);
      head = 0;
    }
  };

  try {
    for (;;) {
      if (options.signal?.aborted) throw new AbortError('the ship was interrupted');
      const round = waiting.slice(0, batchEvents);
      waiting = waiting.slice(round.length);
      while (round.length < batchEvents && window.length - head < maxWindow) {
        const entry = await nextEntry();
        if (!entry) break;
        window.push(entry);
        round.push(entry);
      }
      if (round.length === 0) break;
      const outcomes = await sender.send(
        round.map((entry) => entry.doc),
        options.signal,
      );
      let settled = 0;
      const refused: Entry[] = [];
      outcomes.forEach((outcome, k) => {
        const entry = round[k] as Entry;
        if (outcome.kind === 'retry') {
          entry.refusedSince ??= now();
          entry.lastReason = outcome.reason;
          entry.retryAfterMs = outcome.retryAfterMs;
          refused.push(entry);
        } else {
          entry.outcome = outcome;
          settled += 1;
        }
      });
      thisRun.retried += refused.length;
      thisRun.requests = sender.requests;
      waiting = [...refused, ...waiting];
      await commit();
      options.onProgress?.({
        created: state.created,
        alreadyThere: state.alreadyThere,
        deadLettered: state.deadLettered,
        requests: sender.requests,
        retrying: waiting.length,
      });
      if (waiting.length > 0) {
        let oldest = Number.POSITIVE_INFINITY;
        let retryAfter = 0;
        for (const entry of waiting) {
          oldest = Math.min(oldest, entry.refusedSince as number);
          retryAfter = Math.max(retryAfter, entry.retryAfterMs ?? 0);
        }
        if (now() - oldest > retryForMs) {
          const last = waiting[0] as Entry;
          throw new SvcError(
            `${destination.base} still refuses ${waiting.length} documents after ${Math.round(retryForMs / 1000)} s (${last.lastReason})`,
            'ship_gave_up',
          );
        }
        // Mostly refused for now: the destination is overloaded; wait before the next round.
        if (settled < refused.length) {
          idleRounds += 1;
          const delay =
            retryAfter > 0
              ? Math.min(retryAfter, 60_000)
              : backoffDelay(idleRounds, undefined, options.backoff);
          await sleep(delay, options.signal);
        } else idleRounds = 0;
      } else idleRounds = 0;
      if (now() - lastCheckpoint >= CHECKPOINT_EVERY_MS) await checkpoint();
    }
    await checkpoint();
  } catch (error) {
    // What is committed is kept, whatever stopped the run.
    await checkpoint().catch(() => {});
    if (options.signal?.aborted && !(error instanceof AbortError))
      throw new AbortError('the ship was interrupted', { cause: error });
    throw error;
  } finally {
    await reader.return?.(undefined).catch(() => {});
    await deadLetter?.close().catch(() => {});
    await ownTransport?.close?.();
  }
  const footer = search.footer;
  const archived = footer?.events ?? 0;
  const sent = state.created + state.alreadyThere + state.deadLettered;
  return {
    destination: destination.base,
    kind: destination.kind,
    index: destination.index,
    format,
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
    thisRun,
    deadLetterFile: deadLetter?.path ?? null,
    checkpoint: store.describe(shipStateName(id)),
  };
}

function count(state: ShipCounts, run: ShipCounts, key: keyof ShipCounts): void {
  state[key] += 1;
  run[key] += 1;
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
  if (hec)
    return hecSender(settings, {
      index: destination.index,
      sourcetype: options.sourcetype ?? 'svc:audit',
      ack: options.ack ?? false,
      sleep: options.sleep ?? wait,
      ...(options.backoff && { backoff: options.backoff }),
    });
  return bulkSender(settings, destination.index as string);
}

/** The document of an archived event: its line as archived (`raw`), or its ECS or OCSF document. */
function docOf(match: ArchiveMatch, format: ShipState['format'], keepOriginal: boolean): ShipDoc {
  const { event } = match;
  if (format === 'raw') return { id: event.id, occurredAt: event.occurredAt, json: match.line };
  const line = match.line.toString('utf8');
  const json = JSON.stringify(formatEvent(format, event, { keepOriginal, line }));
  return { id: event.id, occurredAt: event.occurredAt, json };
}

/** One dead-letter line: the event's id and time, the status and reason, the document as sent. */
function deadLine(entry: Entry, outcome: { status: number; reason: string }): string {
  return `{"id":${JSON.stringify(entry.doc.id)},"occurredAt":${JSON.stringify(entry.doc.occurredAt)},"status":${outcome.status},"reason":${JSON.stringify(outcome.reason)},"document":${docText(entry.doc)}}\n`;
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

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    if (signal?.aborted) return fail(new AbortError('the ship was interrupted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      done();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      fail(new AbortError('the ship was interrupted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
