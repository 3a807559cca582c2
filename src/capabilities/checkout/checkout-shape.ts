/**
 * The protocol checkout object (spec part 1 §2.9) from a session, its fresh price and its status:
 * line items and totals as the cart shows them, the discount and fulfillment extensions' members
 * for callers that have them, instruments without credentials, the tenant's policy links, and,
 * while the buyer is handed to the store (`requires_escalation`), `continue_url`: the store's
 * checkout page for this session (or where an escalation sends the buyer).
 */
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../../operations/context.js';
import { discountActive } from '../../extensions/discount/active.js';
import { lineAllocationPath, type AllocationPath } from '../../extensions/discount/applied.js';
import { renderDiscounts } from '../../extensions/discount/discounts-member.js';
import { rejectionMessages } from '../../extensions/discount/rejections.js';
import { fulfillmentActive } from '../../extensions/fulfillment/active.js';
import { renderFulfillment } from '../../extensions/fulfillment/fulfillment-member.js';
import { lineProblemMessages } from '../pricing/line-messages.js';
import { lineItemPaths, renderLineItems } from '../pricing/line-items.js';
import { renderTotals } from '../pricing/totals.js';
import type { PricedCheckout } from './checkout-pricing.js';
import { webhookUrlWarnings } from './order-placement.js';
import type { CheckoutBody, CheckoutSession } from './checkout-record.js';

export interface CheckoutState {
  status: CheckoutBody['status'];
  /** Status messages (missing, review, escalation, payment), after those about lines and codes. */
  messages: readonly Message[];
}

export function renderCheckout(ctx: OperationContext, session: CheckoutSession, priced: PricedCheckout, state: CheckoutState): CheckoutBody {
  const { quote } = priced;
  const lineItems = renderLineItems(quote);
  const linePath = lineAllocationPath(lineItemPaths(lineItems));
  const fulfillment = fulfillmentActive(ctx.caller) ? renderFulfillment(priced.methods, quote, priced.locations) : undefined;
  const allocationPath: AllocationPath = (target) => linePath(target) ?? fulfillment?.allocationPath(target);
  const discounts = discountActive(ctx.caller);
  const messages: Message[] = [
    ...lineProblemMessages(quote, priced.refs),
    ...(discounts ? rejectionMessages(quote.discounts.rejected, ctx.tenant.adapter.capabilities.rejectionReasons) : []),
    ...priced.notices,
    ...state.messages,
    ...webhookUrlWarnings(ctx),
  ];
  const links = ctx.tenant.config.links;
  // The store's page only where the buyer is handed to it (spec: with requires_escalation).
  const continueUrl = state.status === 'requires_escalation' ? (session.escalation?.continueUrl ?? priced.storePage?.url) : undefined;
  return {
    id: session.id,
    status: state.status,
    line_items: lineItems,
    ...(session.context && { context: session.context }),
    ...(session.signals && { signals: session.signals }),
    ...(session.attribution && { attribution: session.attribution }),
    ...(session.buyer && { buyer: session.buyer }),
    currency: quote.currency,
    totals: renderTotals(quote).totals,
    ...(discounts && { discounts: renderDiscounts(session.discountCodes, quote, allocationPath) }),
    ...(fulfillment && { fulfillment: fulfillment.member }),
    payment: { instruments: session.instruments },
    ...(messages.length > 0 && { messages }),
    ...(links?.length && { links }),
    ...(continueUrl && { continue_url: continueUrl }),
    expires_at: new Date(session.expiresAt).toISOString(),
  };
}

/** The answer of a session that no longer changes by itself (being completed, completed, canceled): no handoff, no messages. */
export function storedView(session: CheckoutSession): CheckoutBody {
  const { continue_url: _handoff, messages: _messages, ...view } = session.view!;
  return {
    ...view,
    status: session.status,
    ...(session.order && { order: { id: session.order.id, permalink_url: session.order.permalinkUrl } }),
    expires_at: new Date(session.expiresAt).toISOString(),
  };
}
