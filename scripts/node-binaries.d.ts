/** Types of `node-binaries.js`, for the TypeScript that imports it (the Wine harness). */

/** The one Node version of both pinned binaries. */
export const NODE_VERSION: string;

/** One pinned binary: its npm package, the published integrity and its path inside the package. */
export interface NodeBinaryEntry {
  pkg: string;
  integrity: string;
  bin: string;
}

/** The pinned binaries by platform. */
export const NODE_BINARIES: { win: NodeBinaryEntry; linux: NodeBinaryEntry };

/** Folder the binaries are kept in (ignored by git). */
export const CACHE_DIR: string;

/** The path of the pinned Node binary for `platform`, fetched and checked on first use. */
export function nodeBinary(platform: 'win' | 'linux'): string;
