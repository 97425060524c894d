import { BoundedList } from '../bounded-list.js';
import { fitEvent } from './caps.js';
import type { ConsoleEnvelope, ConsoleEventMap, ConsoleEventName, ConsoleSettings } from './types.js';

/** Events kept for a console that connects (or reconnects) later; older ones are dropped. */
export const MAX_HISTORY = 1000;

/**
 * Bytes of events (their JSON) kept for a console that connects later, whatever their number:
 * 1 MiB, the most a new console is sent before live events; the oldest are dropped first.
 */
export const MAX_HISTORY_BYTES = 1024 * 1024;

/** What a subscriber receives. */
export type BusMessage =
  | { kind: 'event'; envelope: ConsoleEnvelope }
  | { kind: 'settings'; settings: ConsoleSettings }
  | { kind: 'reset' };

function defaultSettings(now: number): ConsoleSettings {
  return { providers: {}, faults: null, clock: { now, frozen: false } };
}

/**
 * The dev server's event bus: API routes, stores and the webhook sender publish what happened;
 * the console's SSE streams subscribe. Each event is capped in size (`caps.ts`), the history in
 * count and in bytes, the subscribers in number; publishing never waits for a subscriber.
 */
export class EventBus {
  private readonly history: BoundedList<ConsoleEnvelope>;
  private lastId = 0;
  private readonly listeners = new Set<(message: BusMessage) => void>();
  private current: ConsoleSettings;

  constructor(
    private readonly now: () => number,
    maxHistory = MAX_HISTORY,
    maxHistoryBytes = MAX_HISTORY_BYTES,
  ) {
    this.history = new BoundedList(maxHistory, maxHistoryBytes);
    this.current = defaultSettings(now());
  }

  /** Logs an event, its long strings cut (`fitEvent`), and hands it to every subscriber. */
  publish<K extends ConsoleEventName>(type: K, data: ConsoleEventMap[K]): void {
    this.lastId += 1;
    const { envelope, bytes } = fitEvent({
      id: this.lastId,
      at: new Date(this.now()).toISOString(),
      type,
      data,
    } as ConsoleEnvelope);
    this.history.push(envelope, bytes);
    this.emit({ kind: 'event', envelope });
  }

  /** Changes some settings and tells every subscriber the whole new set. */
  updateSettings(change: Partial<ConsoleSettings>): void {
    this.current = { ...this.current, ...change };
    this.emit({ kind: 'settings', settings: this.settings() });
  }

  /** The current settings, with the clock read now. */
  settings(): ConsoleSettings {
    return { ...this.current, clock: { ...this.current.clock, now: this.now() } };
  }

  /**
   * Events after `lastId` (all kept ones when undefined), oldest first; `complete` is false when
   * some of them were already dropped from the history.
   */
  since(lastId: number | undefined): { events: ConsoleEnvelope[]; complete: boolean } {
    const after = lastId ?? 0;
    const events = this.history.toArray().filter((e) => e.id > after);
    const oldest = this.history.oldest?.id ?? this.lastId + 1;
    return { events, complete: lastId === undefined || oldest <= after + 1 };
  }

  /** Number of subscribers right now. */
  get subscribers(): number {
    return this.listeners.size;
  }

  /** Adds a subscriber; returns the function that removes it. */
  subscribe(listener: (message: BusMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forgets history and settings (server reset) and tells subscribers. */
  reset(): void {
    this.history.clear();
    this.current = defaultSettings(this.now());
    this.emit({ kind: 'reset' });
  }

  private emit(message: BusMessage): void {
    for (const listener of [...this.listeners]) listener(message);
  }
}
