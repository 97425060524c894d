// The loop the conformance suites share: plain ESM, so that every runtime and bundler takes it.

/**
 * Runs each check in turn and gives what each returned, or `{ threw }` with its error's name and
 * message: never throws, so one broken check does not hide the others.
 * @param {Record<string, () => Promise<unknown>>} checks
 * @returns {Promise<Record<string, unknown>>}
 */
export async function runChecks(checks) {
  const results = {};
  for (const [name, check] of Object.entries(checks)) {
    try {
      results[name] = await check();
    } catch (error) {
      results[name] = { threw: `${error?.name}: ${error?.message}` };
    }
  }
  return results;
}
