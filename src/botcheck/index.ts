// The `svc-sdk/botcheck` entry: the bot check on Web APIs alone (fetch, AbortController,
// TextEncoder, atob/btoa), for Workers, edge routes, Deno, Bun and Node. Nothing re-exported here
// may load a Node built-in, undici, CSV, tax or audit code (test/botcheck/entry.test.ts checks).

export * from '../core/public.js';
export * from './public.js';
export {
  type BotCheckAnswer,
  type BotCheckDecisionEvent,
  type BotCheckOutcome,
  type BotCheckRequest,
  botCheckOf,
  DEFAULT_MAX_BODY_BYTES,
  type ParsedRequest,
  type VerifyRequestOptions,
  verifyRequest,
} from './verify-request.js';
