/**
 * Completing a checkout (spec part 1 §3, §4.3): the order is placed through the adapter exactly
 * once, however many completes arrive, on however many replicas.
 *
 * 1. Claim. In one compare-and-set the session goes from ready_for_complete to
 *    complete_in_progress, tied to the claiming request (a hash of its idempotency key and body).
 *    Before that the store prices the session again: anything missing keeps it incomplete, and
 *    totals that differ from those last shown make it requires_escalation with a
 *    `requires_buyer_review` message, nothing charged. Any other complete meanwhile is refused; the same key and body is
 *    the pipeline's idempotency replay, or, when the first run failed, a resume.
 * 2. Charge once per session: handlers capture at most once per reference (the checkout id).
 *    Declined: back to ready_for_complete with `payment_failed`. The buyer must act (or the store
 *    takes payment itself, handoff): requires_escalation with `continue_url`.
 * 3. Place the order with the checkout id as `reference` (the adapter places once per reference).
 *    Placed: the order record is saved, then completed with `order`. Refused by the store: the
 *    capture is released, requires_escalation with `requires_buyer_review`. Pending, failed or timed out:
 *    the session stays complete_in_progress and the answer says so.
 * 4. Resume (a get, or the claiming request retried): an order found by reference completes the
 *    session. Otherwise, once the latest attempt is surely over (twice the backend deadline:
 *    charge and placement), the resumer takes a new attempt lease (compare-and-set) and places the
 *    order again with the captured payment, which the adapter cannot turn into a second order;
 *    without a capture, the claiming request charges again and a get reopens the session.
 */
import { BackendError, type PaymentRecord, type PlaceOrderResult } from '../../../adapters/contract.js';
import type { CheckoutCompleteRequest } from '../../../schemas/checkout.js';
import type { Message } from '../../../schemas/common.js';
import type { OperationContext } from '../../operations/context.js';
import { fingerprint } from '../../operations/idempotency.js';
import { success, type OperationResult } from '../../operations/operation.js';
import { normalizeAddress, toStoreAddress } from '../../extensions/fulfillment/address.js';
import { choosePayment, paymentHandler, type PaymentChoice, type PaymentSetup } from '../../payments/choose.js';
import { shownInstruments } from '../../payments/instruments.js';
import type { PaymentHandler } from '../../payments/payment-handler.js';
import type { SessionChange } from '../../state/session-repository.js';
import { ownedByCaller } from '../cart/ownership.js';
import { checkoutNotFound, expiryFrom, failed, isOpen, present, refused, sameTotals, statusRules } from './answers.js';
import { pickupLocationsOnce, priceCheckout, type Locations, type PricedCheckout } from './checkout-pricing.js';
import { isLive, type CheckoutSession } from './checkout-record.js';
import { checkoutRepository } from './checkout-repository.js';
import { renderCheckout, storedView } from './checkout-shape.js';
import { buyerActionRequired, completionInterrupted, orderRejected, paymentFailed, totalsChanged } from './complete-messages.js';
import { permalinkFor } from '../order/permalink.js';
import { recordOrder } from './order-placement.js';
import { evaluate } from './status.js';

type Step = { answer: OperationResult } | { attempt: CheckoutSession; choice: PaymentChoice } | { resume: CheckoutSession };

/** How long an attempt may still be charging and placing: no other may start before. */
const attemptLeaseMs = (ctx: OperationContext) => 2 * ctx.tenant.policies.backend.timeoutMs;

const paymentSetup = (ctx: OperationContext): PaymentSetup => ({
  handlers: ctx.tenant.config.payment_handlers ?? [],
  placesOrders: ctx.tenant.adapter.capabilities.placesOrders,
  store: ctx.store,
  tenantId: ctx.tenant.id,
});

export async function completeCheckout(ctx: OperationContext, id: string, request: CheckoutCompleteRequest): Promise<OperationResult> {
  const claim = fingerprint([id, ctx.idempotencyKey ?? '', JSON.stringify(request)]);
  const locations = pickupLocationsOnce(ctx);
  const step = await checkoutRepository(ctx).change<Step>(id, (current) => decide(ctx, current, request, claim, locations));
  if ('answer' in step) return step.answer;
  if ('attempt' in step) return attempt(ctx, step.attempt, step.choice);
  return resumeCompletion(ctx, step.resume, request);
}

async function decide(
  ctx: OperationContext,
  current: CheckoutSession | null,
  request: CheckoutCompleteRequest,
  claim: string,
  locations: Locations,
): Promise<SessionChange<Step, CheckoutSession>> {
  if (!isLive(current, ctx.now()) || !ownedByCaller(ctx, current)) return { result: { answer: checkoutNotFound(ctx) } };
  if (current.status === 'complete_in_progress' && current.completion?.claim === claim) return { result: { resume: current } };
  if (!isOpen(current)) return { result: { answer: refused(current) } };

  const priced = await priceCheckout(ctx, current, locations);
  const evaluation = evaluate(current, priced.quote, statusRules(ctx));
  const body = renderCheckout(ctx, current, priced, evaluation);
  const seen: CheckoutSession = { ...current, status: evaluation.status, seenTotals: body.totals };
  const remember = seen.status !== current.status || !sameTotals(seen.seenTotals, current.seenTotals) ? { write: seen } : {};
  if (evaluation.status !== 'ready_for_complete') return { result: { answer: failed(body) }, ...remember };

  if (!sameTotals(body.totals, current.seenTotals)) {
    const review = [totalsChanged(current.seenTotals, body.totals, body.currency)];
    const changed: CheckoutSession = { ...seen, status: 'requires_escalation', review };
    const answer = failed(renderCheckout(ctx, changed, priced, { status: 'requires_escalation', messages: review }));
    return { result: { answer }, write: changed };
  }
  const { choice, messages } = choosePayment(paymentSetup(ctx), request.payment);
  if (!choice) return { result: { answer: failed({ ...body, messages: [...(body.messages ?? []), ...messages] }) }, ...remember };
  const claimed = claimedSession(ctx, seen, priced, request, choice, claim);
  return { result: { attempt: claimed, choice }, write: claimed };
}

function claimedSession(ctx: OperationContext, seen: CheckoutSession, priced: PricedCheckout, request: CheckoutCompleteRequest, choice: PaymentChoice, claim: string): CheckoutSession {
  const billing = choice.instrument?.billing_address;
  const session: CheckoutSession = {
    ...seen,
    status: 'complete_in_progress',
    ...(request.payment?.instruments && { instruments: shownInstruments(request.payment.instruments) }),
    ...(request.signals && { signals: request.signals }),
    expiresAt: expiryFrom(ctx),
    completion: {
      claim,
      attemptAt: ctx.now(),
      handler: { id: choice.handler.id, type: choice.handler.type },
      placement: {
        reference: seen.id,
        quote: priced.request,
        expectedTotal: priced.quote.totals.total,
        // ready_for_complete needs the email (tenant policies always require it).
        buyer: { ...priced.request.buyer, email: seen.buyer!.email! },
        ...(billing && { billingAddress: toStoreAddress(normalizeAddress(billing).address) }),
      },
    },
  };
  return { ...session, view: renderCheckout(ctx, session, priced, { status: 'complete_in_progress', messages: [] }) };
}

/**
 * Changes the session only while it is still being completed under `claimed`'s claim (and, with
 * `sameAttempt`, by `claimed`'s attempt); null when someone else got there first.
 */
async function whileClaimed<T>(
  ctx: OperationContext,
  claimed: CheckoutSession,
  next: (current: CheckoutSession) => Promise<{ session: CheckoutSession; result: T }>,
  sameAttempt = false,
): Promise<T | null> {
  const { claim, attemptAt } = claimed.completion!;
  return checkoutRepository(ctx).change<T | null>(claimed.id, async (current) => {
    const ours = current?.status === 'complete_in_progress' && current.completion?.claim === claim && (!sameAttempt || current.completion.attemptAt === attemptAt);
    if (!ours) return { result: null };
    const { session, result } = await next(current);
    return { result, write: session };
  });
}

async function attempt(ctx: OperationContext, session: CheckoutSession, choice: PaymentChoice): Promise<OperationResult> {
  const { placement } = session.completion!;
  const charge = await choice.handler.charge({
    reference: session.id,
    amount: placement.expectedTotal,
    currency: session.view!.currency,
    instrument: choice.instrument,
    signals: session.signals,
  });
  switch (charge.status) {
    case 'captured':
      return place(ctx, session, choice.handler, charge.payment);
    case 'declined':
      return reopen(ctx, session, {}, [paymentFailed(charge.reason, choice.index ?? 0)]);
    case 'requires_buyer':
      return reopen(ctx, session, { escalation: { message: buyerActionRequired(charge.reason), continueUrl: session.view!.continue_url! } }, []);
  }
}

async function place(ctx: OperationContext, session: CheckoutSession, handler: PaymentHandler, payment: PaymentRecord): Promise<OperationResult> {
  let placed: PlaceOrderResult;
  try {
    placed = await ctx.tenant.adapter.placeOrder({ ...session.completion!.placement, payment });
  } catch (error) {
    // It may have happened: only a later look-up by reference can tell (never a blind second order).
    const level = error instanceof BackendError ? 'warn' : 'error';
    ctx.log[level]({ err: error, checkout: session.id }, 'placing the order failed; the checkout stays complete_in_progress until it is resolved');
    return success(storedView(session));
  }
  switch (placed.status) {
    case 'placed':
      return completeWith(ctx, session, placed);
    case 'pending':
      return success(storedView(session));
    case 'rejected':
      await handler.release(session.id);
      return reopen(ctx, session, { review: [orderRejected(placed)] }, []);
  }
}

async function completeWith(ctx: OperationContext, session: CheckoutSession, order: { orderId: string; permalinkUrl?: string }): Promise<OperationResult> {
  await recordOrder(ctx, session.id, order.orderId);
  const permalinkUrl = order.permalinkUrl ?? permalinkFor(ctx, order.orderId);
  const done = await whileClaimed(ctx, session, async (current) => {
    const completed: CheckoutSession = { ...current, status: 'completed', order: { id: order.orderId, permalinkUrl }, completion: undefined, expiresAt: expiryFrom(ctx) };
    return { session: completed, result: success(storedView(completed)) };
  });
  return done ?? settledElsewhere(ctx, session.id);
}

/** The session as another request left it, when it settled the completion first. */
async function settledElsewhere(ctx: OperationContext, id: string): Promise<OperationResult> {
  const current = await checkoutRepository(ctx).find(id);
  if (!isLive(current, ctx.now())) return checkoutNotFound(ctx);
  if (!isOpen(current)) return success(storedView(current));
  return success(present(ctx, current, await priceCheckout(ctx, current, pickupLocationsOnce(ctx))).body);
}

/** Back to an open status (decided afresh) with `patch` and `messages`; nothing was charged. */
async function reopen(ctx: OperationContext, claimed: CheckoutSession, patch: Partial<CheckoutSession>, messages: Message[], outcome: 'success' | 'error' = 'error'): Promise<OperationResult> {
  const locations = pickupLocationsOnce(ctx);
  const reopened = await whileClaimed(ctx, claimed, async (current) => {
    const open: CheckoutSession = { ...current, status: 'incomplete', completion: undefined, view: undefined, expiresAt: expiryFrom(ctx), ...patch };
    const { session, body } = present(ctx, open, await priceCheckout(ctx, open, locations), messages);
    return { session, result: outcome === 'error' ? failed(body) : success(body) };
  });
  return reopened ?? settledElsewhere(ctx, claimed.id);
}

/** Step 4: settles a session left complete_in_progress (see the top of this file). */
export async function resumeCompletion(ctx: OperationContext, session: CheckoutSession, request?: CheckoutCompleteRequest): Promise<OperationResult> {
  const completion = session.completion!;
  const found = await ctx.tenant.adapter.findOrderByReference(session.id);
  if (found) return completeWith(ctx, session, found);
  if (ctx.now() < completion.attemptAt + attemptLeaseMs(ctx)) return success(storedView(session));
  const leased = await whileClaimed(
    ctx,
    session,
    async (current) => {
      const next: CheckoutSession = { ...current, completion: { ...current.completion!, attemptAt: ctx.now() } };
      return { session: next, result: next };
    },
    true,
  );
  if (!leased) return settledElsewhere(ctx, session.id);
  const handler = paymentHandler(completion.handler, paymentSetup(ctx));
  const payment = await handler.captured(session.id);
  if (payment) return place(ctx, leased, handler, payment);
  const { choice } = request ? choosePayment(paymentSetup(ctx), request.payment) : {};
  if (choice) return attempt(ctx, leased, choice);
  return reopen(ctx, leased, {}, [completionInterrupted()], 'success');
}
