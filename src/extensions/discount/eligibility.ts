/**
 * Eligibility claims (`context.eligibility`) nothing is priced for are ignored without error, and
 * each gets a warning `eligibility_not_accepted` at its path (upstream 2026-04-08 eligibility
 * message codes), so the platform can tell the buyer. With the discount extension the store
 * decides which claims it accepts (adapter `acceptedClaims`); without it none is priced, since the
 * platform could not show the provisional discount.
 */
import type { Message } from '../../../schemas/common.js';
import { warningMessage } from '../../protocol/messages.js';

export function unacceptedClaims(claims: readonly string[] | undefined, accepted: readonly string[], active: boolean): Message[] {
  const why = active ? 'this store does not recognize it' : 'claims are priced only for platforms with dev.proto.shopping.discount';
  return (claims ?? []).flatMap((claim, i) => {
    if (active && accepted.includes(claim)) return [];
    const content = `Eligibility claim ${JSON.stringify(claim)} changes nothing: ${why}.`;
    return [warningMessage('eligibility_not_accepted', content, `$.context.eligibility[${i}]`)];
  });
}
