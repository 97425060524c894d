import type { ConsoleEnvelope, ConsoleSettings } from '../../events/types.js';

/** Static facts the server sends first on every stream. */
export interface ConsoleMeta {
  outcomes: Array<{ name: string; description: string }>;
  providers: string[];
  faultKinds: string[];
}

/** One view of the console: its element and what it does with each message. */
export interface View {
  root: HTMLElement;
  /** A logged event (request, verification, ...). */
  event?(envelope: ConsoleEnvelope): void;
  /** The settings changed (or were sent on connect). */
  settings?(settings: ConsoleSettings): void;
  /** The server was reset, or history was lost: forget what is shown. */
  reset?(): void;
  /** Called every second for clocks and countdowns. */
  tick?(serverNow: number): void;
}
