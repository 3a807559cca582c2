/**
 * Completing a checkout (spec part 1 §3, §4.3): the order is placed through the adapter exactly
 * once, however many completes arrive, on however many replicas, in the tenant's finishing mode.
 * The workflow, each step in its own file with its undo beside it:
 *
 *   1. claim.ts          the session claimed for this request (complete_in_progress)   undo: releaseClaim
 *   2. verify-claims.ts  priced for the claim, every provisional claim verified          (nothing to undo)
 *   3. charge.ts         charged by the finishing mode, or handed off to the store        undo: releaseCharge
 *   4. place.ts          the order placed once per reference (the checkout id)            (never undone)
 *   5. record.ts         the order recorded, the session completed                        (once per order)
 *
 * A step that ends without an order undoes the steps before it, latest first: a declined charge
 * or a handoff releases the claim; a store that refuses the order releases the charge, then the
 * claim; a store that asks the buyer to confirm the payment first releases the claim with the
 * store's page, and the order it reports later completes the checkout (challenge.ts; while such a
 * challenge waits, a complete asks the store before it claims). A placement not known yet (no
 * answer, or pending) undoes nothing: the session stays complete_in_progress and the recovery job
 * (recovery-queue.ts, recovery-worker.ts) settles it:
 * the order found by reference is recorded; otherwise, once the attempt is surely over, a new
 * attempt places the order again with the payment captured for it (the adapter cannot turn that
 * into a second order), or, nothing captured, the claim is released. The claiming request retried
 * does the same (`resume`), and charges again when nothing was captured. A get never settles
 * anything: it shows the session.
 */
import type { CheckoutCompleteRequest } from '../../../../schemas/checkout.js';
import type { Message } from '../../../../schemas/common.js';
import type { OperationContext } from '../../context.js';
import { success, type OperationResult } from '../../operation.js';
import type { PaymentChoice } from '../../../payments/choose.js';
import { checkoutNotFound, failed, present } from '../answers.js';
import { pickupLocationsOnce } from '../checkout-inputs.js';
import { priceCheckout, type PricedCheckout } from '../checkout-pricing.js';
import {
  expiryFrom,
  isFrozen,
  isLive,
  isOpen,
  reopened,
  type CompletingCheckout,
  type FrozenCheckout,
  type ReopenPatch,
} from '../checkout-record.js';
import { checkoutRepository } from '../checkout-repository.js';
import { getCheckout } from '../checkout-service.js';
import { storedView } from '../checkout-shape.js';
import { challenge, settledOnStore } from './challenge.js';
import { charge, capturedCharge, paymentChoice, releaseCharge, type Charge } from './charge.js';
import { attemptRunning, claim, leaseAttempt, releaseClaim, type CompletionContext } from './claim.js';
import { completionInterrupted, orderRejected, paymentFailed } from './messages.js';
import { place, placedEarlier, type Rejection } from './place.js';
import { record } from './record.js';

export async function completeCheckout(
  ctx: OperationContext,
  id: string,
  request: CheckoutCompleteRequest,
  askStore = true,
): Promise<OperationResult> {
  const claimed = await claim(ctx, id, request, askStore);
  switch (claimed.kind) {
    case 'ask_store':
      return (await settledOnStore(ctx, claimed.session)) ?? completeCheckout(ctx, id, request, false);
    case 'answered':
      return claimed.answer;
    case 'resumed':
      return resume(ctx, claimed.session, request);
    case 'claimed':
      return chargeAndPlace(ctx, claimed.session, claimed.choice, claimed.priced);
  }
}

/** Steps 3 to 5 for a claimed session; `priced`: the claim's price, when this request made it (nothing placed since). */
async function chargeAndPlace(
  ctx: OperationContext,
  session: CompletingCheckout,
  choice: PaymentChoice,
  priced?: PricedCheckout,
): Promise<OperationResult> {
  const charged = await charge(ctx, session, choice);
  switch (charged.kind) {
    case 'declined':
      return reopen(ctx, session, {}, [paymentFailed(charged.reason, choice.index ?? 0)], 'error', priced);
    case 'handed_off':
      return reopen(ctx, session, charged.patch, [], 'error', priced);
    case 'taken':
      return answer(ctx, session, await placeAndRecord(ctx, session, charged), choice.index);
  }
}

/** What became of an attempt after its charge. */
type Settled =
  /** The session is completed, its answer kept (null: another request or job completed it first). */
  | { kind: 'completed'; session: FrozenCheckout | null }
  /** Not known yet (the store is slow, or did not answer): the recovery job settles it. */
  | { kind: 'pending' }
  /** The store refused the order (store_charged: `payment_declined`, nothing charged); the charge is undone. */
  | { kind: 'rejected'; rejection: Rejection }
  /** The store asks the buyer to confirm the payment on its page (nothing charged yet): the claim released with it. */
  | { kind: 'challenged'; patch: ReopenPatch };

/** Steps 4 and 5, with or without a caller: the order placed and recorded, or, refused, the charge undone. */
async function placeAndRecord(
  ctx: CompletionContext,
  session: CompletingCheckout,
  taken: Extract<Charge, { kind: 'taken' }>,
): Promise<Settled> {
  const placed = await place(ctx, session, taken.payment);
  switch (placed.kind) {
    case 'placed':
      return { kind: 'completed', session: await record(ctx, session, placed.order) };
    case 'unknown':
      return { kind: 'pending' };
    case 'rejected':
      await releaseCharge(taken, session);
      return placed;
    case 'requires_action':
      return { kind: 'challenged', patch: await challenge(ctx, session, placed.action) };
  }
}

type Recovery =
  | Settled
  /** Its attempt may still be running. */
  | { kind: 'waiting' }
  /** Nothing was captured or placed: a new attempt is leased, for the caller to charge again or undo. */
  | { kind: 'uncharged'; leased: CompletingCheckout }
  | { kind: 'settled_elsewhere' };

/**
 * Settles a session left complete_in_progress: the order found by reference is recorded;
 * otherwise, once the attempt is surely over, a new attempt is leased and the order placed again
 * with the payment captured for it; without a capture the caller decides (`uncharged`).
 */
async function recover(ctx: CompletionContext, session: CompletingCheckout): Promise<Recovery> {
  const found = await placedEarlier(ctx, session);
  if (found) return { kind: 'completed', session: await record(ctx, session, found) };
  if (attemptRunning(ctx, session)) return { kind: 'waiting' };
  const leased = await leaseAttempt(ctx, session);
  if (!leased) return { kind: 'settled_elsewhere' };
  const taken = await capturedCharge(ctx, leased);
  if (!taken) return { kind: 'uncharged', leased };
  return placeAndRecord(ctx, leased, taken);
}

/** The recovery job's run (recovery-worker.ts): what `recover` leaves open is undone, the buyer told why at the next read. */
export async function recoverInBackground(ctx: CompletionContext, session: CompletingCheckout): Promise<Recovery['kind']> {
  const recovery = await recover(ctx, session);
  if (recovery.kind === 'uncharged') await releaseClaim(ctx, recovery.leased, { notices: [completionInterrupted()] });
  if (recovery.kind === 'rejected') await releaseClaim(ctx, session, { review: [orderRejected(recovery.rejection)] });
  if (recovery.kind === 'challenged') await releaseClaim(ctx, session, recovery.patch);
  return recovery.kind;
}

/** The claiming request retried while its session is complete_in_progress. */
async function resume(ctx: OperationContext, session: CompletingCheckout, request: CheckoutCompleteRequest): Promise<OperationResult> {
  const recovery = await recover(ctx, session);
  switch (recovery.kind) {
    case 'waiting':
      return success(storedView(session));
    case 'settled_elsewhere':
      return settledElsewhere(ctx, session.id);
    case 'uncharged': {
      const { choice } = paymentChoice(ctx, request);
      return choice ? chargeAndPlace(ctx, recovery.leased, choice) : reopen(ctx, recovery.leased, {}, [completionInterrupted()], 'success');
    }
    default:
      return answer(ctx, session, recovery);
  }
}

// What the request answers.

/** `instrument`: the position of the instrument used, for a decline's path. */
function answer(
  ctx: OperationContext,
  session: CompletingCheckout,
  settled: Settled,
  instrument = 0,
): Promise<OperationResult> | OperationResult {
  switch (settled.kind) {
    case 'completed':
      return settled.session ? success(storedView(settled.session)) : settledElsewhere(ctx, session.id);
    case 'pending':
      return success(storedView(session));
    case 'rejected':
      return settled.rejection.reason === 'payment_declined'
        ? reopen(ctx, session, {}, [paymentFailed(`${settled.rejection.detail}.`, instrument)])
        : reopen(ctx, session, { review: [orderRejected(settled.rejection)] }, []);
    case 'challenged':
      return reopen(ctx, session, settled.patch, []);
  }
}

/**
 * The claim released (back to an open status, decided afresh) with `patch`, answered with
 * `messages`; priced first (reusing `earlier` when it priced the same request), then written
 * while still claimed.
 */
async function reopen(
  ctx: OperationContext,
  claimed: CompletingCheckout,
  patch: ReopenPatch,
  messages: Message[],
  outcome: 'success' | 'error' = 'error',
  earlier?: PricedCheckout,
): Promise<OperationResult> {
  const priced = await priceCheckout(ctx, reopened(claimed, expiryFrom(ctx), patch), pickupLocationsOnce(ctx), { earlier });
  const answered = await releaseClaim(ctx, claimed, patch, (open) => {
    const { session, body } = present(ctx, open, priced, messages);
    return { session, result: outcome === 'error' ? failed(body) : success(body) };
  });
  return answered ?? settledElsewhere(ctx, claimed.id);
}

/** The session as another request left it, when it settled the completion first. */
async function settledElsewhere(ctx: OperationContext, id: string): Promise<OperationResult> {
  const current = await checkoutRepository(ctx).find(id);
  if (!isLive(current, ctx.now())) return checkoutNotFound(ctx);
  if (isFrozen(current)) return success(storedView(current));
  if (!isOpen(current)) return getCheckout(ctx, id);
  return success(present(ctx, current, await priceCheckout(ctx, current, pickupLocationsOnce(ctx))).body);
}
