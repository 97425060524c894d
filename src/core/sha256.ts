/** A synchronous SHA-256 of a text's UTF-8 bytes as lowercase hex: what a Node build provides. */
export type Sha256Hex = (text: string) => string;

let provided: Sha256Hex | undefined;

/**
 * Gives {@link sha256Hexes} the runtime's synchronous digest (node:crypto's one-shot `hash` on
 * Node, about 0.5 µs a key). The Node build of the root entry and the CLI provide it when they
 * load (src/node/platform.ts); the builds for other runtimes never do, and digest with Web Crypto.
 * `undefined` goes back to Web Crypto.
 */
export function provideSha256(digest: Sha256Hex | undefined): void {
  provided = digest;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

async function webDigest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of bytes) hex += HEX[byte];
  return hex;
}

/**
 * The SHA-256 of each text (its UTF-8 bytes), as lowercase hex, in their order: the provided
 * synchronous digest where a Node build gave one, else Web Crypto's `subtle.digest` (every
 * runtime with `fetch` has it; about 15 µs of CPU a text on Node, so Node uses its own).
 */
export async function sha256Hexes(texts: readonly string[]): Promise<string[]> {
  const digest = provided;
  if (digest) return texts.map(digest);
  return Promise.all(texts.map(webDigest));
}
