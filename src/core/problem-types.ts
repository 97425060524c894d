/** Base of every problem `type` URI the reference server sends. */
export const PROBLEM_TYPE_BASE = 'https://svc.invalid/problems/';

/**
 * The three causes of a 402 the reference names, each with its own problem `type`
 * (`https://svc.invalid/problems/<cause>`), so a caller can tell them apart without reading text.
 */
export const PAYMENT_REQUIRED_CAUSES = {
  'project-locked': 'the project is locked',
  'feature-not-in-plan': 'the plan does not include this feature',
  'plan-limit-reached': 'a plan limit (such as the number of stored identifiers) is reached',
} as const;
/** A documented cause of a 402. */
export type PaymentRequiredCause = keyof typeof PAYMENT_REQUIRED_CAUSES;

/** The problem `type` URI of a 402 cause. */
export function paymentRequiredType(cause: PaymentRequiredCause): string {
  return `${PROBLEM_TYPE_BASE}${cause}`;
}

/** The problem `type` URI of any other status: `https://svc.invalid/problems/<status>`. */
export function statusProblemType(status: number): string {
  return `${PROBLEM_TYPE_BASE}${status}`;
}

/** The 402 cause a problem body names in its `type`; undefined when it names none of the documented ones. */
export function paymentRequiredCauseOf(body: unknown): PaymentRequiredCause | undefined {
  const type = (body as { type?: unknown } | null | undefined)?.type;
  if (typeof type !== 'string' || !type.startsWith(PROBLEM_TYPE_BASE)) return undefined;
  const cause = type.slice(PROBLEM_TYPE_BASE.length);
  return Object.hasOwn(PAYMENT_REQUIRED_CAUSES, cause) ? (cause as PaymentRequiredCause) : undefined;
}
