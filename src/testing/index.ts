// The `svc-sdk/testing` entry: fixtures for tests and local development against the reference
// server (`svc serve`, `--sandbox`): the dev outcomes and their dummy tokens and verification ids,
// and `createDevVerification`. Web APIs only. Never valid against the real service.
export {
  DEV_OUTCOMES,
  type DevOutcome,
  DUMMY_TOKENS,
  DUMMY_VERIFICATION_IDS,
  isDevOutcome,
} from '../botcheck/dev-outcomes.js';
export type { DevVerification } from '../botcheck/dev-verification.js';
export {
  type CreateDevVerificationOptions,
  createDevVerification,
  type DevServerClient,
  DevServerRequiredError,
} from '../botcheck/dev-verification.js';
