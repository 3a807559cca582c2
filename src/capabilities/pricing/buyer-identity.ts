/**
 * Who the buyer is, for discounts that need a login (`QuoteRequest.identity`). It only comes
 * from a verified buyer token (identity linking: the token's subject is the store's customer id),
 * never from the typed `buyer` contact; anyone else is a guest, so codes that need a login are
 * rejected `user_not_logged_in`.
 */
import type { BuyerIdentity } from '../../../adapters/contract.js';
import type { OperationContext } from '../context.js';

export function buyerIdentity(ctx: OperationContext): BuyerIdentity | undefined {
  const { principal } = ctx.caller;
  return principal.kind === 'buyer' ? { customerId: principal.buyerId } : undefined;
}
