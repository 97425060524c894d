// Node's stream and key types as the public option types take them, described by shape, so that
// the root entry's types compile without @types/node (a Workers project with lib dom only). A
// Node `Readable`, `Writable` or `KeyObject` is one of these; inside, the library uses the Node
// type (the features that take them run on Node only).

/**
 * A Node.js `Readable` (e.g. `process.stdin`, `fs.createReadStream(...)`, `Readable.from(...)`).
 */
export interface ReadableLike extends AsyncIterable<unknown> {
  /** Whether the stream can still be read (Node's `readable.readable`). */
  readonly readable: boolean;
  /** Pulls data out of the internal buffer (Node's `readable.read()`). */
  read(size?: number): unknown;
  /** Adds a listener for a stream event such as `error` or `end`. */
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * A Node.js `Writable` (e.g. `process.stdout`, `fs.createWriteStream(...)`, a `PassThrough`).
 */
export interface WritableLike {
  /** Whether the stream still accepts writes (Node's `writable.writable`). */
  readonly writable: boolean;
  /** Writes one chunk; `false` asks the caller to wait for `drain`. */
  write(chunk: Uint8Array, callback?: (error: Error | null | undefined) => void): boolean;
  /** Ends the stream once what was written is flushed. */
  end(callback?: () => void): unknown;
  /** Adds a listener for a stream event such as `drain`, `error` or `finish`. */
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * A Node.js `crypto.KeyObject` (from `createPrivateKey`, `createPublicKey`, `generateKeyPairSync`).
 * Anything else of this shape (a Web Crypto `CryptoKey`) is refused with a configuration error.
 */
export interface KeyObjectLike {
  /** The kind of key (Node's `keyObject.type`). */
  readonly type: 'secret' | 'public' | 'private';
  /** The algorithm of an asymmetric key, e.g. `ed25519` (Node's `keyObject.asymmetricKeyType`). */
  readonly asymmetricKeyType?: string | undefined;
}
