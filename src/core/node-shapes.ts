// Node's stream and key types as the public option types take them, described by shape, so that
// the root entry's types compile without @types/node (a Workers project with lib dom only). A
// Node `Readable`, `Writable` or `KeyObject` is one of these; inside, the library uses the Node
// type (the features that take them run on Node only).

/**
 * A Node.js `Readable` (e.g. `process.stdin`, `fs.createReadStream(...)`, `Readable.from(...)`).
 */
export interface ReadableLike extends AsyncIterable<unknown> {
  readonly readable: boolean;
  read(size?: number): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * A Node.js `Writable` (e.g. `process.stdout`, `fs.createWriteStream(...)`, a `PassThrough`).
 */
export interface WritableLike {
  readonly writable: boolean;
  write(chunk: Uint8Array, callback?: (error: Error | null | undefined) => void): boolean;
  end(callback?: () => void): unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * A Node.js `crypto.KeyObject` (from `createPrivateKey`, `createPublicKey`, `generateKeyPairSync`).
 * Anything else of this shape (a Web Crypto `CryptoKey`) is refused with a configuration error.
 */
export interface KeyObjectLike {
  readonly type: 'secret' | 'public' | 'private';
  readonly asymmetricKeyType?: string | undefined;
}
