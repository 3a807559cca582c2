/**
 * Step 5 of completing a checkout (complete.ts): the record. The order the store placed is
 * recorded for the platform that claimed the checkout (order/order-record.ts: who may read it,
 * where its webhooks go, its Order created event queued), then the session is completed with it,
 * while this completion still holds it.
 *
 * No undo: the record is written once per order id however often this runs (the recovery job
 * records an order found by reference the same way).
 */
import { recordOrder } from '../../order/order-record.js';
import { permalinkFor } from '../../order/permalink.js';
import { expiryFrom, type CompletingCheckout, type FrozenCheckout } from '../checkout-record.js';
import { whileClaimed, type CompletionContext } from './claim.js';
import type { PlacedOrder } from './place.js';

/** The completed session, its answer kept; null when another request or job completed it first. */
export async function record(ctx: CompletionContext, session: CompletingCheckout, order: PlacedOrder): Promise<FrozenCheckout | null> {
  await recordOrder(ctx, { checkoutId: session.id, lines: session.completion.lines }, order.orderId, session.completion.recipient);
  const permalinkUrl = order.permalinkUrl ?? permalinkFor(ctx, order.orderId);
  return whileClaimed(ctx, session, (current) => {
    const { completion: _completion, ...fields } = current;
    const completed = { ...fields, status: 'completed' as const, order: { id: order.orderId, permalinkUrl }, expiresAt: expiryFrom(ctx) };
    return { session: completed, result: completed };
  });
}
