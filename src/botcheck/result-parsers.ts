// Cold start: importing `svc-sdk/botcheck` or `svc-sdk` loads no zod and builds no schema. The
// result parsers (zod and the schemas with them) load at the first fetch, which is async anyway:
// the first call pays zod's load once, later calls get the same settled promise.

type ResultParsers = typeof import('./result-parsing.js');

let loading: Promise<ResultParsers> | undefined;

/**
 * The bot-check answer parsers, loaded on first use (memoised; a failed load is retried). Callers
 * start it before their request and await it after: a load that fails while the request fails
 * too is never an unhandled rejection (the caller's await still sees it).
 */
export function resultParsers(): Promise<ResultParsers> {
  if (!loading) {
    loading = import('./result-parsing.js').catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    loading.catch(() => undefined);
  }
  return loading;
}
