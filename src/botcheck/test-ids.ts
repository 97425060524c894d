/**
 * The documented test verification ids: canned answers without a real verification, selected by
 * the last digit. `passed` answers 200 only with the test key (`ak_` followed by 49 `x`).
 */
export const TEST_VERIFICATION_IDS = {
  /** 200 with a sample passed result (test key only). */
  passed: '00000000-0000-0000-0000-000000000000',
  /** 404. */
  notFound: '00000000-0000-0000-0000-000000000001',
  /** 423. */
  notFinished: '00000000-0000-0000-0000-000000000002',
  /** 410. */
  expired: '00000000-0000-0000-0000-000000000003',
  /** 429 on the current API (410 on the legacy API). */
  fetchLimit: '00000000-0000-0000-0000-000000000004',
} as const;
