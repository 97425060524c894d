import type { ItemOutcome } from './sender.js';

// How both senders cut a round's documents into request bodies: packed in order up to the size
// limit, and a body the destination finds too large (413) cut in two until it fits.

/** A slice of a round's documents: `from` included, `to` excluded. */
export type Send = (from: number, to: number) => Promise<void>;

/** The bytes of documents `from` to `to`. */
export function sliceBytes(sizes: readonly number[], from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i += 1) bytes += sizes[i] as number;
  return bytes;
}

/** Sends the documents in bodies of at most `max` bytes, packed in order (a document larger than `max` alone). */
export async function inBodies(sizes: readonly number[], max: number, send: Send): Promise<void> {
  let start = 0;
  while (start < sizes.length) {
    let end = start;
    let bytes = 0;
    while (end < sizes.length && (end === start || bytes + (sizes[end] as number) <= max)) {
      bytes += sizes[end] as number;
      end += 1;
    }
    await send(start, end);
    start = end;
  }
}

/** Sends the two halves of a slice of more than one document, one after the other. */
export async function inHalves(from: number, to: number, send: Send): Promise<void> {
  const middle = from + Math.ceil((to - from) / 2);
  await send(from, middle);
  await send(middle, to);
}

/** Sets the outcome of documents `from` to `to`. */
export function fill(out: ItemOutcome[], from: number, to: number, outcome: ItemOutcome): void {
  for (let i = from; i < to; i += 1) out[i] = outcome;
}
