/**
 * Step 4 of completing a checkout (complete.ts): the placement, with the checkout id as
 * `reference`, which the store places at most once however often it is asked (the adapter
 * contract). Placed: the order is recorded next (record.ts). Refused by the store: nothing was
 * placed, and the steps before are undone (the charge released, the claim released). The store
 * asks the buyer to confirm the payment first (`requires_action`): nothing is charged yet, the
 * checkout waits for the store's report (challenge.ts). Not known (the store is slow, did not
 * answer, or left it pending): the session stays complete_in_progress and its recovery job is
 * due at once (recovery-queue.ts); only a look-up by reference (`placedEarlier`, with the store's
 * own reference when it named one) can tell, never a blind second order.
 *
 * No undo: the gateway never takes an order back.
 */
import { BackendError, type OrderPayment, type PlaceOrderResult } from '../../../../adapters/contract.js';
import type { CompletingCheckout } from '../checkout-record.js';
import { whileClaimed, type CompletionContext } from './claim.js';
import { enqueueRecovery } from './recovery-queue.js';

export type Rejection = Extract<PlaceOrderResult, { status: 'rejected' }>;

/** The order the store placed: its id, and its page when the store has one for the buyer. */
export interface PlacedOrder {
  orderId: string;
  permalinkUrl?: string;
}

export type BuyerAction = Omit<Extract<PlaceOrderResult, { status: 'requires_action' }>, 'status'>;

type Placed =
  | { kind: 'placed'; order: PlacedOrder }
  | { kind: 'unknown' }
  | { kind: 'rejected'; rejection: Rejection }
  | { kind: 'requires_action'; action: BuyerAction };

export async function place(ctx: CompletionContext, session: CompletingCheckout, payment: OrderPayment): Promise<Placed> {
  let placed: PlaceOrderResult;
  try {
    placed = await ctx.tenant.adapter.placeOrder({ ...session.completion.placement, payment });
  } catch (error) {
    // It may have happened: only a later look-up by reference can tell (never a blind second order).
    const level = error instanceof BackendError ? 'warn' : 'error';
    ctx.log[level](
      { err: error, checkout: session.id },
      'placing the order failed; the checkout stays complete_in_progress until the queue resolves it',
    );
    await enqueueRecovery(ctx, session, ctx.now());
    return { kind: 'unknown' };
  }
  switch (placed.status) {
    case 'placed':
      return { kind: 'placed', order: placed };
    case 'pending':
      if (placed.storeReference !== undefined) await rememberStoreReference(ctx, session, placed.storeReference);
      await enqueueRecovery(ctx, session, ctx.now());
      return { kind: 'unknown' };
    case 'rejected':
      return { kind: 'rejected', rejection: placed };
    case 'requires_action': {
      const { status: _, ...action } = placed;
      return { kind: 'requires_action', action };
    }
  }
}

/** A pending placement's store reference, kept with the completion for the look-up that settles it. */
const rememberStoreReference = (ctx: CompletionContext, session: CompletingCheckout, storeReference: string) =>
  whileClaimed(ctx, session, (current) => ({
    session: { ...current, completion: { ...current.completion, storeReference } },
    result: null,
  }));

/** The order an earlier attempt placed for this checkout (its answer lost, or left pending), if any. */
export const placedEarlier = (ctx: CompletionContext, session: CompletingCheckout): Promise<PlacedOrder | null> => {
  const { storeReference, placement } = session.completion;
  const links = { ...(storeReference && { storeReference }), ...(placement.quote.handle && { handle: placement.quote.handle }) };
  return ctx.tenant.adapter.findOrderByReference(session.id, undefined, links);
};
