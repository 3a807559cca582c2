/**
 * Prices a cart with the store: every cart response (create, get, update, cancel) shows the
 * store's current prices, discounts and availability for the cart's inputs, priced in the store's
 * own cart (the handle) and with the store's page for it. Pricing happens before the cart is
 * written (see state/session-repository.ts); `inputs` says what was priced.
 */
import type { Quote } from '../../../adapters/contract.js';
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../context.js';
import { priceCart as extensionsPricing } from '../../extensions/steps.js';
import { fingerprint } from '../../security/fingerprint.js';
import { callerQuoteRequest } from '../pricing/caller-quote.js';
import { lineRefs, type LineRef } from '../pricing/line-messages.js';
import { storePage, type StorePage } from '../pricing/store-page.js';
import type { ActiveCart } from './cart-record.js';

export interface PricedCart {
  quote: Quote;
  /** Choices made for the buyer (currency) to tell them about. */
  notices: Message[];
  /** Where each line was in the list that was priced, for the paths of line messages. */
  refs: ReadonlyMap<string, LineRef>;
  /** The store's cart after this quote, and its page (`continue_url`). */
  handle?: string;
  storePage: StorePage;
}

/** What pricing `cart` reads, to tell whether a price can be reused (see SessionRepository.changePriced). */
export const cartInputs = (ctx: OperationContext, cart: ActiveCart): string =>
  fingerprint([JSON.stringify(requestFor(ctx, cart).request), cart.id, JSON.stringify(cart.storePage ?? null)]);

const requestFor = (ctx: OperationContext, cart: ActiveCart) => callerQuoteRequest(ctx, cart, extensionsPricing(ctx, cart));

export async function priceCart(ctx: OperationContext, cart: ActiveCart): Promise<PricedCart> {
  const { request, notices } = requestFor(ctx, cart);
  const quote = await ctx.tenant.adapter.quote({ ...request, reference: cart.id }, undefined, ctx.client);
  const handle = quote.handle ?? cart.handle;
  const page = await storePage(ctx, cart.id, { ...request, ...(handle !== undefined && { handle }) }, cart.storePage);
  return { quote, notices, refs: lineRefs(cart.lines), ...(page.handle !== undefined && { handle: page.handle }), storePage: page.page };
}

/** The cart with the store's cart and page it was priced in. */
export function withStoreCart(cart: ActiveCart, priced: PricedCart): ActiveCart {
  const { handle: _old, ...rest } = cart;
  return { ...rest, ...(priced.handle !== undefined && { handle: priced.handle }), storePage: priced.storePage };
}
