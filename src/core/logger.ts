/** Where the client writes its debug lines. `console` fits; so does pino or winston. */
export interface Logger {
  /** One debug line (an HTTP attempt, redacted). */
  debug(message: string): void;
  /** One warning line; optional. */
  warn?(message: string): void;
}

/** Passed to `onRequest` before each attempt. Header values are already redacted. */
export interface RequestEvent {
  method: string;
  url: string;
  headers: Record<string, string>;
  attempt: number;
}

/** Passed to `onResponse` after each attempt that got a response. */
export interface ResponseEvent {
  method: string;
  url: string;
  status: number;
  durationMs: number;
  requestId: string | undefined;
  attempt: number;
}
