/**
 * Provisional discounts at completion (spec part 1 §3: "at checkout completion all remaining
 * provisional claims MUST be resolved"). Every claim behind a provisional discount is verified
 * through the adapter's optional `verifyEligibility`; a claim it does not verify (or every claim,
 * for an adapter without the hook) is dropped: the checkout is priced again without it, the buyer
 * is told which discount went and why, and the session remembers the claim so it is not priced
 * again. An order therefore never carries an unverified provisional discount.
 */
import type { AppliedDiscount, EligibilityBuyer } from '../../../../adapters/contract.js';
import type { Message } from '../../../../schemas/common.js';
import type { OperationContext } from '../../context.js';
import { warningMessage } from '../../../protocol/messages.js';
import { buyerIdentity } from '../../pricing/buyer-identity.js';
import { renderTotals } from '../../pricing/totals.js';
import { priceCheckout, withStorePage, type Locations, type PricedCheckout, type PricedSession } from '../checkout-pricing.js';
import type { CheckoutSession } from '../checkout-record.js';

export interface SettledPrice {
  priced: PricedCheckout;
  /** Claims verified now, and claims dropped now (with the discounts they carried). */
  verified: string[];
  dropped: Array<{ claim: string; titles: string[] }>;
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

/** Prices the session for completion, every provisional claim verified or dropped. */
export async function priceForCompletion(
  ctx: OperationContext,
  session: PricedSession & Pick<CheckoutSession, 'buyer' | 'seenTotals'>,
  locations: Locations,
): Promise<SettledPrice> {
  const priced = await priceCheckout(ctx, session, locations);
  const claims = provisionalClaims(priced.quote.discounts.applied);
  if (claims.length === 0) return { priced: await forReview(ctx, session, priced, false), verified: [], dropped: [] };
  const { adapter } = ctx.tenant;
  const verdicts = adapter.verifyEligibility ? await adapter.verifyEligibility(claims, eligibilityBuyer(ctx, session)) : [];
  const verified = claims.filter((claim) => verdicts.some((v) => v.claim === claim && v.verified));
  const droppedClaims = claims.filter((claim) => !verified.includes(claim));
  const settled = {
    ...session,
    handle: priced.handle ?? session.handle,
    verifiedClaims: [...(session.verifiedClaims ?? []), ...verified],
    rejectedClaims: [...(session.rejectedClaims ?? []), ...droppedClaims],
  };
  const dropped = droppedClaims.map((claim) => ({
    claim,
    titles: priced.quote.discounts.applied.filter((d) => d.eligibility === claim).map((d) => d.title),
  }));
  const repriced = await priceCheckout(ctx, settled, locations);
  return { priced: await forReview(ctx, session, repriced, dropped.length > 0), verified, dropped };
}

/**
 * Complete refuses totals the buyer has not seen, or a dropped claim, with requires_escalation:
 * its answer carries the store's page, fetched here, before the session is written.
 */
function forReview(
  ctx: OperationContext,
  session: PricedSession & Pick<CheckoutSession, 'seenTotals'>,
  priced: PricedCheckout,
  dropped: boolean,
): Promise<PricedCheckout> | PricedCheckout {
  const review = dropped || JSON.stringify(renderTotals(priced.quote).totals) !== JSON.stringify(session.seenTotals);
  return review ? withStorePage(ctx, session, priced) : priced;
}

/** What the buyer is told about each dropped claim. */
export function droppedClaimMessages(dropped: SettledPrice['dropped'], context: CheckoutSession['context']): Message[] {
  return dropped.map(({ claim, titles }) => {
    const index = context?.eligibility?.indexOf(claim) ?? -1;
    const discount = titles.length > 0 ? titles.join(', ') : 'its discount';
    const content =
      `The store could not verify the eligibility claim ${JSON.stringify(claim)} for this buyer, ` +
      `so ${discount} was removed and the totals repriced.`;
    return warningMessage('eligibility_not_verified', content, index >= 0 ? `$.context.eligibility[${index}]` : undefined);
  });
}
