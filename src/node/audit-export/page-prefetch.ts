import { cursorAtTail } from './cursor-at-tail.js';

/** The fixed part of an export's page query plus the cursor of the page asked for. */
export interface PageQuery {
  from: string;
  to: string;
  pageSize: number;
  cursor: string | undefined;
}

/** Reads one page's bytes into the buffer of `slot` (see {@link EARLY_PAGE_SLOTS}). */
export type PageBytesFetcher = (query: PageQuery, signal: AbortSignal, slot: number) => Promise<Uint8Array>;

/**
 * Buffer slots the early fetcher needs: the page the exporter writes, the page being scanned, and
 * the next page on its way. A request for page k starts only after page k-3 was written, so
 * slot k mod 3 is free whenever it is reused.
 */
export const EARLY_PAGE_SLOTS = 3;

interface EarlyRequest {
  cursor: string;
  slot: number;
  controller: AbortController;
  bytes: Promise<Uint8Array>;
}

/**
 * Page fetches that ask for the next page as soon as a page's bytes are in, with the cursor read
 * off the page's tail ({@link cursorAtTail}), so the server builds page k+1 while this process
 * scans page k. The tail is only a guess: the page is then scanned in full, and the caller asks
 * for the cursor the scan found. A request for another cursor is aborted and never used, so what
 * is followed is exactly what the pages say; at worst one extra GET (safe) is sent.
 */
export class EarlyPageFetcher {
  #early: EarlyRequest | undefined;
  #requests = 0;

  constructor(private readonly fetchBytes: PageBytesFetcher) {}

  /** The bytes of the page `query` names, started early when it was the guessed next page. */
  async bytes(query: PageQuery, signal: AbortSignal | undefined): Promise<Uint8Array> {
    let pending: Promise<Uint8Array>;
    const early = this.#early;
    this.#early = undefined;
    if (early !== undefined && early.cursor === query.cursor) {
      pending = early.bytes;
    } else {
      let slot: number;
      if (early !== undefined) {
        // A wrong guess: its buffer is free again once its read has stopped.
        early.controller.abort();
        await early.bytes.catch(() => {});
        slot = early.slot;
      } else slot = this.#nextSlot();
      pending = this.fetchBytes(query, signal ?? new AbortController().signal, slot);
    }
    const bytes = await pending;
    const next = cursorAtTail(bytes);
    if (typeof next === 'string') {
      this.#start({ ...query, cursor: next }, signal);
      // One turn of the event loop, so the request is on the wire before the caller's scan
      // (synchronous, about a millisecond per page) holds the thread: measured, without it the
      // server sees the request only after the scan and nothing overlaps.
      await nextTurn();
    }
    return bytes;
  }

  /** Aborts a request started early that nobody asked for (call when paging ends). */
  close(): void {
    this.#early?.controller.abort();
    this.#early = undefined;
  }

  #nextSlot(): number {
    return this.#requests++ % EARLY_PAGE_SLOTS;
  }

  #start(query: PageQuery & { cursor: string }, signal: AbortSignal | undefined): void {
    const controller = new AbortController();
    const combined = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
    const slot = this.#nextSlot();
    const bytes = this.fetchBytes(query, combined, slot);
    // Observed when asked for; a guess nobody asks for must not be an unhandled rejection.
    bytes.catch(() => {});
    this.#early = { cursor: query.cursor, slot, controller, bytes };
  }
}

/** Resolves after pending I/O callbacks have run (setImmediate where there is one). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}
