/**
 * The demo store verifies eligibility claims from config/demo/eligibility.yaml: a claim holds for
 * the signed-in customer listed under it, or for a buyer whose email is listed (the email of the
 * signed-in customer counts too). Anything else is not verified.
 */
import type { EligibilityBuyer, EligibilityVerdict } from '../contract.js';
import type { StoreData } from './model.js';

export function verifyClaims(data: StoreData, claims: readonly string[], buyer: EligibilityBuyer): EligibilityVerdict[] {
  const customerId = buyer.identity?.customerId;
  const emails = [buyer.contact?.email, buyer.identity?.email, customerId && data.customerEmails.get(customerId)]
    .filter((e): e is string => Boolean(e))
    .map((e) => e.toLowerCase());
  return claims.map((claim) => {
    const holders = data.claims.get(claim);
    const verified = Boolean(holders && ((customerId && holders.customers.has(customerId)) || emails.some((e) => holders.emails.has(e))));
    return {
      claim,
      verified,
      ...(!verified && { detail: holders ? 'the buyer is not listed for this claim' : 'the store verifies no such claim' }),
    };
  });
}
