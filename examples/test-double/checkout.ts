/**
 * A checkout step of a web shop: the order goes through only when the visitor passed the bot
 * check, and the VAT treatment follows the customer's VAT ID. This is the code under test in
 * `checkout.test.ts`, which runs it against the reference server as a test double.
 *
 * In your app, import from 'svc-sdk' instead of '../../src/index.js'.
 */
import { LocalValidationError, type SvcClient } from '../../src/index.js';

/** What the shop received with the order. */
export interface CheckoutInput {
  /** The `svc-verification-token` field of the checkout form. */
  verificationToken: string | undefined;
  countryCode: string;
  /** The business customer's VAT ID; absent for consumers. */
  vatId?: string;
  companyName?: string;
}

/** How VAT is charged: reverse charge only for a VAT ID the registry confirmed. */
export type VatTreatment = 'reverse-charge' | 'charge-vat';

/** What the checkout decided. */
export type CheckoutDecision =
  | { status: 'blocked' }
  | { status: 'extra-check-needed' }
  | { status: 'vat-id-malformed'; message: string }
  | {
      status: 'accepted';
      vat: VatTreatment;
      /** The registry's outcome (VALID, INVALID, UNKNOWN, ...), PENDING, or NONE without a VAT ID. */
      vatCheck: string;
      /** true when the registry could not decide: a person should look at the order. */
      review: boolean;
    };

// Outcomes that say nothing about the ID itself: charge VAT for now, and have someone look.
const UNDECIDED = new Set(['UNKNOWN', 'SOURCE_UNAVAILABLE', 'PENDING']);

/** Verifies the bot check, then the VAT ID, and decides how to take the order. */
export async function checkout(client: SvcClient, input: CheckoutInput): Promise<CheckoutDecision> {
  // Two thresholds: clear bots are blocked, doubtful visitors get a second check.
  const human = await client.botCheck.verify(input.verificationToken, { policy: { kind: 'multiStage' } });
  if (human.decision === 'reject') return { status: 'blocked' };
  if (human.decision === 'challenge') return { status: 'extra-check-needed' };
  if (!input.vatId) return { status: 'accepted', vat: 'charge-vat', vatCheck: 'NONE', review: false };

  let vatCheck: string;
  try {
    const outcome = await client.tax.validate(
      {
        countryCode: input.countryCode,
        rawValue: input.vatId,
        ...(input.companyName && { companyName: input.companyName }),
      },
      // A typo in the check digit is caught here, before any request.
      { precheck: 'strict' },
    );
    vatCheck = outcome.kind === 'completed' ? String(outcome.result.outcome) : 'PENDING';
  } catch (error) {
    if (error instanceof LocalValidationError) {
      return { status: 'vat-id-malformed', message: error.issues.map((i) => i.message).join('; ') };
    }
    throw error;
  }
  return {
    status: 'accepted',
    vat: vatCheck === 'VALID' ? 'reverse-charge' : 'charge-vat',
    vatCheck,
    review: UNDECIDED.has(vatCheck),
  };
}
