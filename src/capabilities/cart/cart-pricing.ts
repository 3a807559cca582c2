/**
 * Prices a cart with the store: every cart response (create, get, update, cancel) shows the
 * store's current prices, discounts and availability for the cart's inputs.
 */
import type { Quote } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../../operations/context.js';
import { callerQuoteRequest } from '../pricing/caller-quote.js';
import { lineRefs, type LineRef } from '../pricing/line-messages.js';
import type { ActiveCart } from './cart-record.js';

export interface PricedCart {
  quote: Quote;
  /** Choices made for the buyer (currency) to tell them about. */
  notices: Message[];
  /** Where each line was in the list that was priced, for the paths of line messages. */
  refs: ReadonlyMap<string, LineRef>;
  /** The store's page for this cart (`continue_url`). */
  storeUrl: string;
}

export async function priceCart(ctx: OperationContext, cart: ActiveCart): Promise<PricedCart> {
  const { request, notices } = callerQuoteRequest(ctx, cart);
  const quote = await ctx.tenant.adapter.quote(request);
  const page = await ctx.tenant.adapter.checkoutUrl({ reference: cart.id, ...(quote.handle && { handle: quote.handle }), quote: request });
  return { quote, notices, refs: lineRefs(cart.lines), storeUrl: page.url };
}
