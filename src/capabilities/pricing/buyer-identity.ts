/**
 * Who the buyer is, for discounts that need a login (`QuoteRequest.identity`). It may only come
 * from a verified buyer token (identity linking), never from the typed `buyer` contact. Nothing
 * in the request context carries one yet, so every buyer is a guest: codes that need a login
 * are rejected `user_not_logged_in`. The security layer's authenticated principal plugs in here.
 */
import type { BuyerIdentity } from '../../../adapters/contract.js';
import type { OperationContext } from '../../operations/context.js';

export function buyerIdentity(_ctx: OperationContext): BuyerIdentity | undefined {
  return undefined;
}
