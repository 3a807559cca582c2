/**
 * The store asks the buyer to act before it charges (a placement answered `requires_action`:
 * 3-D Secure, a bank redirect, a wallet approval). Nothing is charged yet. The checkout is open
 * again, `requires_escalation`, its `continue_url` the store's page for the payment and a
 * `buyer_action_required` message (requires_buyer_input), as upstream escalates what only the
 * buyer can do; it is remembered as a handoff (handoff-record.ts, with the store's reference when
 * it named one), so when the buyer approves and the store reports the order (webhook or poll,
 * webhooks/reconcile.ts) the checkout completes by itself and the platform gets its `order
 * created` webhook.
 *
 * A failed or abandoned challenge: stores seldom report one (WooCommerce leaves its order pending,
 * Medusa its payment session `requires_more`), so the gateway asks the store when it matters:
 * - a complete while the challenge waits first looks the order up (`settledOnStore`, by reference
 *   and the store's reference): placed and paid, the checkout completes with it and nothing is
 *   charged again; otherwise the complete goes on with its instrument (claim.ts,
 *   `withoutChallenge`), and the store replaces the waiting attempt (one order per reference);
 * - the challenge lapses after CHALLENGE_TTL_MS (card schemes end a 3-D Secure session within
 *   minutes): the checkout is ready_for_complete again, with a warning saying why.
 * An order the store reports later still completes the checkout while it is open.
 */
import type { OrderLinks } from '../../../../adapters/contract.js';
import type { OperationContext } from '../../context.js';
import type { OperationResult } from '../../operation.js';
import { recordOrder } from '../../order/order-record.js';
import { orderRecipient } from '../../order/order-recipient.js';
import { refused } from '../answers.js';
import {
  isOpen,
  visibleTo,
  type CheckoutSession,
  type CompletingCheckout,
  type OpenCheckout,
  type ReopenPatch,
} from '../checkout-record.js';
import { checkoutRepository } from '../checkout-repository.js';
import { getCheckout } from '../checkout-service.js';
import { loadHandoff, saveHandoff } from '../handoff-record.js';
import type { CompletionContext } from './claim.js';
import { completeHandedOff } from './handed-off-order.js';
import { paymentConfirmationRequired } from './messages.js';
import type { BuyerAction } from './place.js';

/** How long the buyer has to act on the store's page before the checkout can be completed without asking the store. */
export const CHALLENGE_TTL_MS = 15 * 60_000;

const CONFIRM = 'The store asks the buyer to confirm this payment (card authentication, a bank or wallet approval).';

/** The reopened session's escalation to the store's page, its order awaited as a handoff's. */
export async function challenge(ctx: CompletionContext, session: CompletingCheckout, action: BuyerAction): Promise<ReopenPatch> {
  const { storeReference, continueUrl, detail } = action;
  const links = { ...(session.completion.lines && { lines: session.completion.lines }), ...(storeReference && { storeReference }) };
  await saveHandoff(ctx, session.id, session.completion.recipient, links, 'placeOrder');
  const until = ctx.now() + CHALLENGE_TTL_MS;
  const message = paymentConfirmationRequired(detail ? detail.replace(/\.?$/, '.') : CONFIRM);
  return { escalation: { message, continueUrl, challenge: { ...(storeReference && { storeReference }), until } } };
}

const links = (session: OpenCheckout): OrderLinks => {
  const storeReference = session.escalation?.challenge?.storeReference;
  return { ...(storeReference && { storeReference }), ...(session.handle && { handle: session.handle }) };
};

/**
 * What a complete answers instead of claiming, when the store settled the checkout (claim.ts
 * `ask_store`): the order of its challenge, placed and paid on the store (the checkout completed
 * with it now), or a checkout the store completed earlier (the refusal, with the checkout and its
 * order). Null: the store settled nothing, go on.
 */
export async function settledOnStore(ctx: OperationContext, session: CheckoutSession): Promise<OperationResult | null> {
  const { id } = session;
  if (session.status === 'completed' && session.view === undefined) return repeated(ctx, id);
  if (!isOpen(session) || !session.escalation?.challenge) return null;
  const { adapter } = ctx.tenant;
  const found = await adapter.findOrderByReference(id, undefined, links(session));
  const order = found && (await adapter.getOrder(found.orderId));
  if (!order || order.awaitingPayment) return null;
  const handoff = await loadHandoff(ctx, id);
  const origin = { checkoutId: id, ...(handoff?.lines && { lines: handoff.lines }) };
  await recordOrder(ctx, origin, order.id, handoff?.recipient ?? orderRecipient(ctx), order);
  await completeHandedOff(ctx, id, order);
  return getCheckout(ctx, id);
}

/** A complete of a checkout the store completed: rendered once (as get does), then refused with the checkout and its order. */
async function repeated(ctx: OperationContext, id: string): Promise<OperationResult | null> {
  await getCheckout(ctx, id);
  const current = await checkoutRepository(ctx).find(id);
  return visibleTo(ctx, current) && !isOpen(current) ? refused(current) : null;
}
