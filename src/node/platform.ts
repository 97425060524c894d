import { provideSha256 } from '../core/sha256.js';
import { provideNodeTransports } from '../core/transport/default.js';
import { nodeBuiltin } from './fs/builtin.js';
import { createDefaultTransport } from './transport/default.js';

let hash: typeof import('node:crypto').hash | undefined;

/** node:crypto's one-shot SHA-256 as hex, loaded at the first digest (not when the package loads). */
function nodeSha256(text: string): string {
  hash ??= nodeBuiltin('node:crypto', 'batch idempotency keys').hash;
  return hash('sha256', text, 'hex');
}

/**
 * What the Node build gives the Web-safe library: Node's transports (undici for API calls,
 * node:http for bulk page reads) as the default of every client it makes
 * (core/transport/default.ts), and node:crypto's digest for the batch keys (core/sha256.ts).
 * Called by the Node build of the root entry and by the CLI before they make a client; calling it
 * again changes nothing. Loads no Node module itself.
 */
export function useNodePlatform(): void {
  provideNodeTransports(createDefaultTransport);
  provideSha256(nodeSha256);
}
