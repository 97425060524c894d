// The verify path's test for the dev server's dummy ids, apart from the tables of dev-outcomes.ts:
// esbuild puts a whole module in the chunk of each entry that reaches it, so the tables (dummy
// tokens, ids, outcome texts) would load with every `import('svc-sdk/botcheck')` on Node.

/** A dummy verification id: the ids of `DUMMY_VERIFICATION_IDS` (dev-outcomes.ts), whatever their case. */
const DUMMY_ID = /^00000000-0000-0000-dddd-00000000000[1-7]$/i;

/**
 * Whether `verificationId` is one of the dev server's `DUMMY_VERIFICATION_IDS` (case-insensitive):
 * the same answer as `dummyOutcomeOf(id) !== undefined` without the tables, for the verify path.
 */
export function isDummyVerificationId(verificationId: string): boolean {
  return DUMMY_ID.test(verificationId);
}
