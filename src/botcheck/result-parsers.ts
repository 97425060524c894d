// Cold start: importing `svc-sdk/botcheck` or `svc-sdk` loads no zod and builds no schema. The
// result parsers (zod and the schemas with them) load at the first fetch, which is async anyway:
// the first call pays zod's load once, later calls get the loaded parser itself.

type ResultParsing = typeof import('./result-parsing-compiled.js');

let loading: Promise<ResultParsing> | undefined;

/**
 * The module of the bot-check answer parsers, loaded on first use (memoised; a failed load is
 * retried). Callers start it before their request and await it after: a load that fails while the
 * request fails too is never an unhandled rejection (the caller's await still sees it).
 */
function resultParsing(): Promise<ResultParsing> {
  if (!loading) {
    loading = import('./result-parsing-compiled.js').catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    loading.catch(() => undefined);
  }
  return loading;
}

/**
 * One parser of the module, memoised like the module: the parser itself once loaded (the hot
 * path awaits nothing), a promise of it until then; a failed load is forgotten, and left to the
 * caller's await, never unhandled.
 */
function memoParser<K extends keyof ResultParsing>(
  name: K,
): () => ResultParsing[K] | Promise<ResultParsing[K]> {
  let loaded: ResultParsing[K] | undefined;
  let parser: Promise<ResultParsing[K]> | undefined;
  return () => {
    if (loaded) return loaded;
    if (!parser) {
      const loadingParser = resultParsing().then((parsing) => {
        loaded = parsing[name];
        return loaded;
      });
      parser = loadingParser;
      loadingParser.catch(() => {
        if (parser === loadingParser) parser = undefined;
      });
    }
    return parser;
  };
}

/** The parser of current-API answers, loaded on first use (see above). */
export const verificationResultParser = /* @__PURE__ */ memoParser('parseVerificationResult');

/** The parser of legacy answers, loaded on first use (see above). */
export const legacyAssessmentParser = /* @__PURE__ */ memoParser('parseLegacyAssessment');
