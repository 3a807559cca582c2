/**
 * Step 2 of completing a checkout (complete.ts): the provisional discounts' claims verified (spec
 * part 1 §3: "at checkout completion all remaining provisional claims MUST be resolved"). It runs
 * as the claim's price (claim.ts), before its compare-and-set. Every claim behind a provisional
 * discount is verified through the adapter's optional `verifyEligibility`. A claim it does not
 * verify (or every claim, for an adapter without the hook) only affects the answer's messages
 * (upstream checkout.md): a recoverable `eligibility_invalid` error at the claim, totals untouched,
 * no order placed, until the buyer or platform removes the claim (the update prices without it) or
 * proves it. An order therefore never carries an unverified provisional discount.
 *
 * No undo: it only prices and asks; what that leaves (the store's cart, its page for a review) is
 * what any read of the checkout leaves.
 */
import type { AppliedDiscount, EligibilityBuyer } from '../../../../adapters/contract.js';
import type { Message } from '../../../../schemas/common.js';
import type { OperationContext } from '../../context.js';
import { errorMessage } from '../../../protocol/messages.js';
import { buyerIdentity } from '../../pricing/buyer-identity.js';
import { renderTotals } from '../../pricing/totals.js';
import { priceCheckout, withStorePage, type PricedCheckout, type PricedSession, type PricingInputs } from '../checkout-pricing.js';
import type { Locations } from '../checkout-inputs.js';
import type { CheckoutSession } from '../checkout-record.js';

export interface SettledPrice {
  priced: PricedCheckout;
  /** Claims verified now, and claims not verified (with the discounts they carry). */
  verified: string[];
  invalid: Array<{ claim: string; titles: string[] }>;
}

const provisionalClaims = (applied: readonly AppliedDiscount[]): string[] => [
  ...new Set(applied.flatMap((d) => (d.provisional && d.eligibility ? [d.eligibility] : []))),
];

function eligibilityBuyer(ctx: OperationContext, session: Pick<CheckoutSession, 'buyer'>): EligibilityBuyer {
  const identity = buyerIdentity(ctx);
  const { email, first_name: firstName, last_name: lastName, phone_number: phone } = session.buyer ?? {};
  const contact = { ...(email && { email }), ...(firstName && { firstName }), ...(lastName && { lastName }), ...(phone && { phone }) };
  return { ...(Object.keys(contact).length > 0 && { contact }), ...(identity && { identity }) };
}

/** Prices the session for completion (`inputs`: its pricingInputs), every provisional claim verified or found invalid. */
export async function priceForCompletion(
  ctx: OperationContext,
  session: PricedSession & Pick<CheckoutSession, 'buyer' | 'seenTotals'>,
  locations: Locations,
  inputs?: PricingInputs,
): Promise<SettledPrice> {
  const priced = await priceCheckout(ctx, session, locations, { inputs });
  const claims = provisionalClaims(priced.quote.discounts.applied);
  const { adapter } = ctx.tenant;
  const verdicts =
    claims.length > 0 && adapter.verifyEligibility ? await adapter.verifyEligibility(claims, eligibilityBuyer(ctx, session)) : [];
  const verified = claims.filter((claim) => verdicts.some((v) => v.claim === claim && v.verified));
  const invalid = claims
    .filter((claim) => !verified.includes(claim))
    .map((claim) => ({ claim, titles: priced.quote.discounts.applied.filter((d) => d.eligibility === claim).map((d) => d.title) }));
  // Verified claims price as settled (no longer provisional); the invalid ones stay as shown.
  const settled = { ...session, handle: priced.handle ?? session.handle, verifiedClaims: [...(session.verifiedClaims ?? []), ...verified] };
  const repriced = verified.length > 0 ? await priceCheckout(ctx, settled, locations) : priced;
  return { priced: await forReview(ctx, session, repriced), verified, invalid };
}

/**
 * Complete refuses totals the buyer has not seen with requires_escalation: its answer carries the
 * store's page, fetched here, before the session is written.
 */
function forReview(
  ctx: OperationContext,
  session: PricedSession & Pick<CheckoutSession, 'seenTotals'>,
  priced: PricedCheckout,
): Promise<PricedCheckout> | PricedCheckout {
  const review = JSON.stringify(renderTotals(priced.quote).totals) !== JSON.stringify(session.seenTotals);
  return review ? withStorePage(ctx, session, priced) : priced;
}

/** What the buyer and platform are told about each claim the store did not verify. */
export function invalidClaimMessages(invalid: SettledPrice['invalid'], context: CheckoutSession['context']): Message[] {
  return invalid.map(({ claim, titles }) => {
    const index = context?.eligibility?.indexOf(claim) ?? -1;
    const discount = titles.length > 0 ? titles.join(', ') : 'its discount';
    const content =
      `The store could not verify the eligibility claim ${JSON.stringify(claim)} for this buyer: ` +
      `remove the claim (${discount} then no longer applies) or prove it, then complete again.`;
    return errorMessage('eligibility_invalid', content, 'recoverable', index >= 0 ? `$.context.eligibility[${index}]` : undefined);
  });
}
