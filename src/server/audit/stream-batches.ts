import { seededRandom } from '../random.js';
import type { Segment } from './segments.js';
import type { AuditStreamConfig } from './stream-config.js';

/** One request's worth of events: positions in one segment, in the order they are sent. */
export interface StreamBatch {
  /** Number of the batch in its stream, from 1; its `webhook-id` is made from it. */
  seq: number;
  segment: Segment;
  positions: number[];
}

/** What the batcher has decided so far. */
export interface BatchCounts {
  /** Events recorded for the stream. */
  recorded: number;
  /** Event copies put into batches (duplicates included). */
  pushed: number;
  dropped: number;
  duplicated: number;
  /** Events not yet put into a batch nor dropped, and duplicates waiting for their later batch. */
  waiting: number;
}

/** A recording (one segment) being cut into batches. */
interface Recording {
  segment: Segment;
  /** Send order when reordered (a shuffle of the positions); else oldest first, computed on the way. */
  order: Uint32Array | undefined;
  next: number;
  /** Duplicates of the last batch, sent at the head of the next one. */
  carried: number[];
}

/**
 * Cuts what a stream must push into batches, one when asked, so events wait as segment positions
 * (a few numbers per recording) and only batches under way exist whole. The faults are drawn
 * here from the stream's seed, two draws per event in send order (drop, then duplicate), after a
 * reorder's shuffle: the same seed and the same recordings give the same batches, whatever the
 * network does. A batch never spans two recordings, so where batches end does not depend on
 * when the next recording arrives.
 */
export class StreamBatcher {
  private readonly queue: Recording[] = [];
  private readonly random: () => number;
  private seq = 0;
  private readonly counts: BatchCounts = { recorded: 0, pushed: 0, dropped: 0, duplicated: 0, waiting: 0 };

  constructor(private readonly config: AuditStreamConfig) {
    this.random = seededRandom(config.faults.seed);
  }

  /** Whether a batch may still come (some recording is not cut to its end). */
  get pending(): boolean {
    return this.queue.length > 0;
  }

  get totals(): Readonly<BatchCounts> {
    return this.counts;
  }

  /** Queues a recorded segment. */
  add(segment: Segment): void {
    if (segment.size === 0) return;
    this.counts.recorded += segment.size;
    this.counts.waiting += segment.size;
    this.queue.push({ segment, order: undefined, next: 0, carried: [] });
  }

  /** The next batch to send, or undefined when every recording is cut. */
  next(): StreamBatch | undefined {
    for (let head = this.queue[0]; head; head = this.queue[0]) {
      const positions = this.cut(head);
      if (positions.length > 0) {
        this.seq += 1;
        this.counts.pushed += positions.length;
        return { seq: this.seq, segment: head.segment, positions };
      }
      this.queue.shift();
    }
    return undefined;
  }

  /** Drops what waits (the stream is gone). */
  clear(): void {
    this.queue.length = 0;
    this.counts.waiting = 0;
  }

  /** The next batch of a recording: last batch's duplicates first, then fresh events; empty at its end. */
  private cut(rec: Recording): number[] {
    const { batchSize, faults } = this.config;
    const size = rec.segment.size;
    if (faults.reorder && rec.order === undefined && rec.next === 0) rec.order = this.shuffled(size);
    const out = rec.carried.splice(0, batchSize);
    this.counts.waiting -= out.length;
    const duplicates: number[] = [];
    while (out.length < batchSize && rec.next < size) {
      // Oldest first: position 0 is the newest.
      const position = rec.order ? (rec.order[rec.next] as number) : size - 1 - rec.next;
      rec.next += 1;
      this.counts.waiting -= 1;
      const drop = this.random() < faults.dropRate;
      const duplicate = this.random() < faults.duplicateRate;
      if (drop) {
        this.counts.dropped += 1;
        continue;
      }
      out.push(position);
      if (duplicate) duplicates.push(position);
    }
    this.counts.duplicated += duplicates.length;
    this.counts.waiting += duplicates.length;
    rec.carried.push(...duplicates);
    return out;
  }

  /** The positions `0..size-1` oldest first, then shuffled (Fisher-Yates) with the stream's draws. */
  private shuffled(size: number): Uint32Array {
    const order = new Uint32Array(size);
    for (let i = 0; i < size; i++) order[i] = size - 1 - i;
    for (let i = size - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      const t = order[i] as number;
      order[i] = order[j] as number;
      order[j] = t;
    }
    return order;
  }
}
