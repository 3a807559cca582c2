/**
 * The protocol checkout object (spec part 1 §2.9) from a session, its fresh price and its status:
 * line items and totals as the cart shows them, the discount and fulfillment extensions' members
 * for callers that have them, instruments without credentials, the tenant's policy links, and,
 * while the buyer is handed to the store (`requires_escalation`), `continue_url`: the store's
 * checkout page for this session (or where an escalation sends the buyer).
 */
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../context.js';
import { isoTimestamp } from '../timestamp.js';
import { lineAllocationPath } from '../../extensions/allocation-path.js';
import { renderCheckout as renderExtensions } from '../../extensions/steps.js';
import { lineProblemMessages } from '../pricing/line-messages.js';
import { lineItemPaths, renderLineItems } from '../pricing/line-items.js';
import { renderTotals } from '../pricing/totals.js';
import type { PricedCheckout } from './checkout-pricing.js';
import { webhookUrlWarnings } from '../order/order-recipient.js';
import type { CheckoutBody, FrozenCheckout, SessionFields } from './checkout-record.js';

export interface CheckoutState {
  status: CheckoutBody['status'];
  /** Status messages (missing, review, escalation, payment), after those about lines and codes. */
  messages: readonly Message[];
}

export function renderCheckout(ctx: OperationContext, session: SessionFields, priced: PricedCheckout, state: CheckoutState): CheckoutBody {
  const { quote } = priced;
  const lineItems = renderLineItems(quote);
  const extensions = renderExtensions(
    ctx,
    { ...session, ...priced.settled },
    quote,
    lineAllocationPath(lineItemPaths(lineItems)),
    priced.locations,
  );
  const messages: Message[] = [
    ...lineProblemMessages(quote, priced.refs),
    ...extensions.messages,
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
    ...extensions.members,
    payment: { instruments: session.instruments },
    ...(messages.length > 0 && { messages }),
    ...(links?.length && { links }),
    ...(continueUrl && { continue_url: continueUrl }),
    expires_at: isoTimestamp(session.expiresAt),
  };
}

/** The answer of a session that no longer changes by itself (being completed, completed, canceled): no handoff, no messages. */
export function storedView(session: FrozenCheckout): CheckoutBody {
  const { continue_url: _handoff, messages: _messages, ...view } = session.view;
  return {
    ...view,
    status: session.status,
    ...(session.status === 'completed' && { order: { id: session.order.id, permalink_url: session.order.permalinkUrl } }),
    expires_at: isoTimestamp(session.expiresAt),
  };
}
