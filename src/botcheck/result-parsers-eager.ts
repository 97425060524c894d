import { parseLegacyAssessment, parseVerificationResult } from './result-parsing.js';

// The web build's `result-parsers.ts` (tsup.config.ts swaps it in): a bundler that builds a Worker,
// an edge route or a page inlines a dynamic import as lazily initialised modules, which adds about
// 1 KiB to a minified Worker; there the parsers are bundled in as static imports instead.

const loaded = Promise.resolve({ parseLegacyAssessment, parseVerificationResult });

/** The bot-check answer parsers, already loaded. */
export function resultParsers(): Promise<typeof import('./result-parsing.js')> {
  return loaded;
}
