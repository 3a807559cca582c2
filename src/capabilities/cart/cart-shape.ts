/**
 * The protocol cart object (spec part 1 §2.5) from a stored cart and its fresh price. The same
 * object is what cart change notifications carry (part 2 §6.2).
 */
import type { Cart } from '../../../schemas/cart.js';
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../context.js';
import { isoTimestamp } from '../timestamp.js';
import { lineAllocationPath } from '../../extensions/allocation-path.js';
import { renderCart as renderExtensions } from '../../extensions/steps.js';
import { lineProblemMessages } from '../pricing/line-messages.js';
import { lineItemPaths, renderLineItems } from '../pricing/line-items.js';
import { partialTotalsMessage, renderTotals } from '../pricing/totals.js';
import type { PricedCart } from './cart-pricing.js';
import type { ActiveCart } from './cart-record.js';

export type CartBody = Omit<Cart, 'proto'>;

/** `expiresAt` overrides the cart's own (a canceled cart ends now). */
export function renderCart(ctx: OperationContext, cart: ActiveCart, priced: PricedCart, expiresAt = cart.expiresAt): CartBody {
  const { quote } = priced;
  const lineItems = renderLineItems(quote);
  const extensions = renderExtensions(ctx, cart, quote, lineAllocationPath(lineItemPaths(lineItems)));
  const { totals, pending } = renderTotals(quote);
  const messages: Message[] = [
    ...lineProblemMessages(quote, priced.refs),
    ...extensions.messages,
    ...priced.notices,
    ...(pending.length > 0 ? [partialTotalsMessage(pending)] : []),
  ];
  const links = ctx.tenant.config.links;
  return {
    id: cart.id,
    line_items: lineItems,
    ...(cart.context && { context: cart.context }),
    ...(cart.signals && { signals: cart.signals }),
    ...(cart.attribution && { attribution: cart.attribution }),
    ...(cart.buyer && { buyer: cart.buyer }),
    currency: quote.currency,
    totals,
    ...extensions.members,
    ...(messages.length > 0 && { messages }),
    ...(links?.length && { links }),
    continue_url: priced.storePage.url,
    expires_at: isoTimestamp(expiresAt),
  };
}
