/**
 * Settling a checkout that is `complete_in_progress`, with or without a request: placing its
 * order, recording it, or undoing the attempt. What here writes the session only ever changes it
 * while it is still claimed by the same completion (`whileClaimed`), and renders nothing, so the
 * durable queue (completion/recovery-queue.ts) can run it without a caller; the complete request renders
 * its answer from the outcome (completion/complete.ts).
 *
 * Every claim queues a recovery job due when its attempt is surely over (twice the backend
 * deadline: charge and placement). The job finds the session still in progress only when the
 * request died or the store left the placement pending: it then completes the session with the
 * order found by reference, places the order again with the payment already captured (the adapter
 * cannot turn that into a second order), or undoes the attempt when nothing was captured.
 */
import { BackendError, type OrderPayment, type PlaceOrderResult } from '../../../../adapters/contract.js';
import type { OperationContext } from '../../context.js';
import { paymentHandler } from '../../../payments/choose.js';
import type { PaymentHandler } from '../../../payments/payment-handler.js';
import { permalinkFor } from '../../order/permalink.js';
import { expiryFrom } from '../answers.js';
import {
  reopened,
  type CheckoutSession,
  type CompletingCheckout,
  type FrozenCheckout,
  type OpenCheckout,
  type ReopenPatch,
} from '../checkout-record.js';
import { checkoutRepository } from '../checkout-repository.js';
import { completionInterrupted, orderRejected } from './messages.js';
import { attemptLeaseMs, enqueueRecovery } from './recovery-queue.js';
import { recordOrder } from '../../order/order-record.js';

/** What settling needs: no caller, no rendering. */
export type SettleContext = Pick<OperationContext, 'tenant' | 'store' | 'now' | 'log' | 'secret'>;

export type Placement =
  /** The session is completed, its answer kept (null: another request or job completed it first). */
  | { kind: 'completed'; session: FrozenCheckout | null }
  /** Not known yet (the store is slow, or did not answer): the recovery job settles it. */
  | { kind: 'pending' }
  /** The store refused the order (store_charged: `payment_declined`, nothing charged); a gateway capture was released. */
  | { kind: 'rejected'; rejection: Extract<PlaceOrderResult, { status: 'rejected' }> };

/**
 * Changes the session only while it is still being completed under `claimed`'s claim (and, with
 * `sameAttempt`, by `claimed`'s attempt); null when someone else got there first. When `claimed`
 * is the record this request wrote, it is not read back (state/session-repository.ts).
 */
export async function whileClaimed<T>(
  ctx: SettleContext,
  claimed: CompletingCheckout,
  next: (current: CompletingCheckout) => { session: CheckoutSession; result: T },
  sameAttempt = false,
): Promise<T | null> {
  const { claim, attemptAt } = claimed.completion;
  return checkoutRepository(ctx).change<T | null>(
    claimed.id,
    async (current) => {
      const ours =
        current?.status === 'complete_in_progress' &&
        current.completion.claim === claim &&
        (!sameAttempt || current.completion.attemptAt === attemptAt);
      if (!ours) return { result: null };
      const { session, result } = next(current);
      return { result, write: session };
    },
    claimed,
  );
}

/** The order exists on the store: record it (its webhook queued), then the session is completed. */
export async function completeWith(
  ctx: SettleContext,
  session: CompletingCheckout,
  order: { orderId: string; permalinkUrl?: string },
): Promise<FrozenCheckout | null> {
  await recordOrder(ctx, session.id, order.orderId, session.completion.recipient);
  const permalinkUrl = order.permalinkUrl ?? permalinkFor(ctx, order.orderId);
  return whileClaimed(ctx, session, (current) => {
    const { completion: _completion, ...fields } = current;
    const completed = { ...fields, status: 'completed' as const, order: { id: order.orderId, permalinkUrl }, expiresAt: expiryFrom(ctx) };
    return { session: completed, result: completed };
  });
}

/** Places the order once per reference and settles what can be settled without a caller. */
export async function placeOrder(
  ctx: SettleContext,
  session: CompletingCheckout,
  handler: PaymentHandler,
  payment: OrderPayment,
): Promise<Placement> {
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
    return { kind: 'pending' };
  }
  switch (placed.status) {
    case 'placed':
      return { kind: 'completed', session: await completeWith(ctx, session, placed) };
    case 'pending':
      await enqueueRecovery(ctx, session, ctx.now());
      return { kind: 'pending' };
    case 'rejected':
      await handler.release(session.id);
      return { kind: 'rejected', rejection: placed };
  }
}

/**
 * Back to an open status with `patch`, without an answer to render: the next read decides the
 * status afresh. Null when someone else settled the session first.
 */
export function reopenQuietly(ctx: SettleContext, claimed: CompletingCheckout, patch: ReopenPatch): Promise<OpenCheckout | null> {
  return whileClaimed(ctx, claimed, (current) => {
    const open = reopened(current, expiryFrom(ctx), patch);
    return { session: open, result: open };
  });
}

export type Recovery =
  | Placement
  /** Its attempt may still be running. */
  | { kind: 'waiting' }
  /** Nothing was captured or placed: the attempt is undone (or the caller charges again). */
  | { kind: 'uncharged'; leased: CompletingCheckout }
  | { kind: 'settled_elsewhere' };

/**
 * Settles a session left complete_in_progress: the order found by reference completes it;
 * otherwise, once the attempt is surely over, a new attempt lease is taken and the order placed
 * again with the payment captured for it; without a capture the caller decides (`uncharged`).
 */
export async function recover(ctx: SettleContext, session: CompletingCheckout): Promise<Recovery> {
  const { completion } = session;
  const found = await ctx.tenant.adapter.findOrderByReference(session.id);
  if (found) return { kind: 'completed', session: await completeWith(ctx, session, found) };
  if (ctx.now() < completion.attemptAt + attemptLeaseMs(ctx)) return { kind: 'waiting' };
  const leased = await whileClaimed(
    ctx,
    session,
    (current) => {
      const next: CompletingCheckout = { ...current, completion: { ...current.completion, attemptAt: ctx.now() } };
      return { session: next, result: next };
    },
    true,
  );
  if (!leased) return { kind: 'settled_elsewhere' };
  await enqueueRecovery(ctx, leased);
  const handler = paymentHandler(completion.handler, { store: ctx.store, tenantId: ctx.tenant.id });
  const payment = await handler.captured(session.id);
  if (!payment) return { kind: 'uncharged', leased };
  return placeOrder(ctx, leased, handler, { mode: 'gateway_charged', record: payment });
}

/** The queue's part: what `recover` leaves open is undone, the buyer told why at the next read. */
export async function recoverInBackground(ctx: SettleContext, session: CompletingCheckout): Promise<Recovery['kind']> {
  const recovery = await recover(ctx, session);
  if (recovery.kind === 'uncharged') await reopenQuietly(ctx, recovery.leased, { notices: [completionInterrupted()] });
  if (recovery.kind === 'rejected') await reopenQuietly(ctx, session, { review: [orderRejected(recovery.rejection)] });
  return recovery.kind;
}
