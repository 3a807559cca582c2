/**
 * Prices a cart with the store: every cart response (create, get, update, cancel) shows the
 * store's current prices, discounts and availability for the cart's inputs.
 */
import type { Quote } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../../operations/context.js';
import { discountActive } from '../../extensions/discount/active.js';
import { buyerIdentity } from '../pricing/buyer-identity.js';
import { lineRefs, type LineRef } from '../pricing/line-messages.js';
import { quoteRequest } from '../pricing/quote-request.js';
import type { ActiveCart } from './cart-record.js';

export interface PricedCart {
  quote: Quote;
  /** Choices made for the buyer (currency) to tell them about. */
  notices: Message[];
  /** Where each line was in the list that was priced, for the paths of line messages. */
  refs: ReadonlyMap<string, LineRef>;
}

export async function priceCart(ctx: OperationContext, cart: ActiveCart): Promise<PricedCart> {
  const { adapter } = ctx.tenant;
  const discounts = discountActive(ctx.caller);
  const { request, notices } = quoteRequest({
    lines: cart.lines,
    context: cart.context,
    buyer: cart.buyer,
    identity: buyerIdentity(ctx),
    discountCodes: discounts ? cart.discountCodes : [],
    eligibility: discounts,
    currencies: adapter.capabilities.currencies,
  });
  return { quote: await adapter.quote(request), notices, refs: lineRefs(cart.lines) };
}

/** The cart with only the lines the store priced (unknown, zero-quantity and sold-out ones go). */
export function keepPricedLines(cart: ActiveCart, quote: Quote): ActiveCart {
  const priced = new Set(quote.lines.map((line) => line.lineId));
  return { ...cart, lines: cart.lines.filter((line) => priced.has(line.id)) };
}
