/** What a plan allows. */
export interface Plan {
  name: string;
  scheduledValidation: boolean;
  auditLog: boolean;
  /** Audit events older than this are not returned. */
  auditRetentionDays: number;
  /** Stored tax identifiers allowed; null for no limit. */
  identifierLimit: number | null;
}

export const FULL_PLAN: Plan = {
  name: 'business',
  scheduledValidation: true,
  auditLog: true,
  auditRetentionDays: 90,
  identifierLimit: null,
};
export const BASIC_PLAN: Plan = {
  name: 'basic',
  scheduledValidation: false,
  auditLog: false,
  auditRetentionDays: 0,
  identifierLimit: 25,
};

/** Who a key belongs to. */
export interface Principal {
  kind: 'project' | 'agency' | 'captcha-secret';
  /** Project id, agency id, or captcha id for a captcha secret. */
  ownerId: string;
  plan: Plan;
  locked: boolean;
  expired: boolean;
  /** Captcha owned by the project (or the captcha of a secret key). */
  captchaId: string | undefined;
  /** Whether failed automatic checks go to manual review (project setting). */
  manualReviewOnFailure: boolean;
}

/** The documented test key: `ak_` followed by 49 `x`. */
export const TEST_KEY = `ak_${'x'.repeat(49)}`;

/** Ids of the demo fixture. */
export const DEMO = {
  projectKey: 'ak_demo_project',
  agencyKey: 'ak_demo_agency',
  basicKey: 'ak_basic_project',
  lockedKey: 'ak_locked_project',
  expiredKey: 'ak_expired_key',
  captchaSecret: 'demo-captcha-secret',
  projectId: 'demo',
  agencyId: 'demo-agency',
  captchaId: '5f0c7c1e-8a4b-4f1e-9d2a-0d3c6b7a8e91',
} as const;

/** The fixture keys, always present after a reset. */
export function fixturePrincipals(): Map<string, Principal> {
  const project = (ownerId: string, plan: Plan, extra: Partial<Principal> = {}): Principal => ({
    kind: 'project',
    ownerId,
    plan,
    locked: false,
    expired: false,
    captchaId: undefined,
    manualReviewOnFailure: true,
    ...extra,
  });
  return new Map<string, Principal>([
    [DEMO.projectKey, project(DEMO.projectId, FULL_PLAN, { captchaId: DEMO.captchaId })],
    [DEMO.agencyKey, { ...project(DEMO.agencyId, FULL_PLAN), kind: 'agency' }],
    [DEMO.basicKey, project('basic', BASIC_PLAN)],
    [DEMO.lockedKey, project('locked', FULL_PLAN, { locked: true })],
    [DEMO.expiredKey, project(DEMO.projectId, FULL_PLAN, { expired: true })],
    [TEST_KEY, project('test', FULL_PLAN)],
    [
      DEMO.captchaSecret,
      { ...project(DEMO.projectId, FULL_PLAN, { captchaId: DEMO.captchaId }), kind: 'captcha-secret' },
    ],
  ]);
}
