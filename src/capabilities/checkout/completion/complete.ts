/**
 * Completing a checkout (spec part 1 §3, §4.3): the order is placed through the adapter exactly
 * once, however many completes arrive, on however many replicas, in the tenant's finishing mode.
 *
 * 1. Claim. The store prices the session first (outside the compare-and-set; every provisional
 *    discount verified, completion/verify-claims.ts). Anything missing keeps it incomplete; a claim not verified
 *    is a recoverable `eligibility_invalid` message, totals untouched, nothing charged; totals
 *    that differ from those last shown make it requires_escalation with a
 *    `requires_buyer_review` message (and the store's page), nothing charged. Otherwise one compare-and-set moves it from
 *    ready_for_complete to complete_in_progress, tied to the claiming request (a hash of its
 *    idempotency key and body), and a recovery job is queued (completion/recovery-queue.ts). Any other
 *    complete meanwhile is refused; the same key and body is the pipeline's idempotency replay,
 *    or, when the first run failed, a resume.
 * 2. Charge, by mode. gateway_charged: handlers capture at most once per reference (the checkout
 *    id); declined: back to ready_for_complete with `payment_failed`. store_charged: nothing is
 *    taken here; the credential goes to the store with the placement. handoff (or a buyer who
 *    must act): requires_escalation with `continue_url`, the store's checkout page for this
 *    checkout (the order placed there is reconciled later, webhooks/reconcile.ts).
 * 3. Place the order with the checkout id as `reference` (completion/settle.ts). Placed: the order record
 *    is saved, then completed with `order`. Refused by the store: a capture is released, the
 *    session reopens (`payment_failed` for a store's decline, else requires_escalation with
 *    `requires_buyer_review`).
 *    Pending, failed or timed out: complete_in_progress; the recovery job settles it.
 * 4. Resume (the claiming request retried): completion/settle.ts `recover`; without a capture, the
 *    retried request charges again. A get never settles anything: it shows the session.
 */
import type { CheckoutCompleteRequest } from '../../../../schemas/checkout.js';
import type { Message } from '../../../../schemas/common.js';
import type { OperationContext } from '../../context.js';
import { fingerprint } from '../../../security/fingerprint.js';
import { success, type OperationResult } from '../../operation.js';
import { normalizeAddress, toStoreAddress } from '../../../protocol/postal-address.js';
import { choosePayment, type PaymentChoice, type PaymentSetup } from '../../../payments/choose.js';
import { shownInstruments } from '../instruments.js';
import type { ChangePlan } from '../../../state/session-repository.js';
import { ownedByCaller } from '../../cart/ownership.js';
import { storePage } from '../../pricing/store-page.js';
import { checkoutNotFound, expiryFrom, failed, present, presentedChanges, refused, sameTotals } from '../answers.js';
import {
  pickupLocationsOnce,
  pricingInputs,
  priceCheckout,
  withStoreCart,
  type Locations,
  type PricedCheckout,
} from '../checkout-pricing.js';
import {
  isFrozen,
  isLive,
  isOpen,
  reopened,
  type CheckoutSession,
  type CompletingCheckout,
  type OpenCheckout,
  type ReopenPatch,
} from '../checkout-record.js';
import { checkoutRepository } from '../checkout-repository.js';
import { getCheckout } from '../checkout-service.js';
import { renderCheckout, storedView } from '../checkout-shape.js';
import { buyerActionRequired, completionInterrupted, orderRejected, paymentFailed, totalsChanged } from './messages.js';
import { placeOrder, recover, whileClaimed, type Placement } from './settle.js';
import { enqueueRecovery } from './recovery-queue.js';
import { saveHandoff } from '../handoff-record.js';
import { orderRecipient } from '../../order/order-recipient.js';
import { invalidClaimMessages, priceForCompletion, type SettledPrice } from './verify-claims.js';
import { evaluate, statusRules } from '../status.js';

/** `priced`: the price the claim was decided on, reused when the answer is priced again in this request. */
type Step =
  | { answer: OperationResult }
  | { attempt: CompletingCheckout; choice: PaymentChoice; priced: PricedCheckout }
  | { resume: CompletingCheckout };

const paymentSetup = (ctx: OperationContext): PaymentSetup => ({
  handlers: ctx.tenant.config.payment_handlers ?? [],
  finishing: ctx.tenant.finishing,
  store: ctx.store,
  tenantId: ctx.tenant.id,
});

export async function completeCheckout(ctx: OperationContext, id: string, request: CheckoutCompleteRequest): Promise<OperationResult> {
  const claim = fingerprint([id, ctx.idempotencyKey ?? '', JSON.stringify(request)]);
  const locations = pickupLocationsOnce(ctx);
  const step = await checkoutRepository(ctx).changePriced<Step, SettledPrice>(id, async (current) =>
    plan(ctx, current, request, claim, locations),
  );
  if ('answer' in step) return step.answer;
  if ('attempt' in step) {
    await enqueueRecovery(ctx, step.attempt);
    return attempt(ctx, step.attempt, step.choice, step.priced);
  }
  return resume(ctx, step.resume, request);
}

function plan(
  ctx: OperationContext,
  current: CheckoutSession | null,
  request: CheckoutCompleteRequest,
  claim: string,
  locations: Locations,
): ChangePlan<Step, CheckoutSession, SettledPrice> {
  if (!isLive(current, ctx.now()) || !ownedByCaller(ctx, current)) return { result: { answer: checkoutNotFound(ctx) } };
  if (current.status === 'complete_in_progress' && current.completion.claim === claim) return { result: { resume: current } };
  if (!isOpen(current)) return { result: { answer: refused(current) } };
  const inputs = pricingInputs(ctx, current, 'complete');
  return {
    inputs: inputs.key,
    price: () => priceForCompletion(ctx, current, locations, inputs),
    apply: (settled) => decide(ctx, current, request, claim, settled),
  };
}

function decide(
  ctx: OperationContext,
  current: OpenCheckout,
  request: CheckoutCompleteRequest,
  claim: string,
  settled: SettledPrice,
): ReturnType<typeof plan> & { result: Step } {
  const { priced, verified, invalid } = settled;
  const claims: OpenCheckout = {
    ...current,
    ...(verified.length > 0 && { verifiedClaims: [...(current.verifiedClaims ?? []), ...verified] }),
  };
  const evaluation = evaluate(claims, priced.quote, statusRules(ctx));
  const body = renderCheckout(ctx, claims, priced, evaluation);
  const seen: OpenCheckout = withStoreCart({ ...claims, status: evaluation.status, seenTotals: body.totals, notices: undefined }, priced);
  const remember = presentedChanges(current, seen) || claims !== current ? { write: seen } : {};
  if (evaluation.status !== 'ready_for_complete') return { result: { answer: failed(body) }, ...remember };

  // A claim the store did not verify affects the messages only: status and totals stay as shown.
  if (invalid.length > 0) {
    const messages = [...(body.messages ?? []), ...invalidClaimMessages(invalid, current.context)];
    return { result: { answer: failed({ ...body, messages }) }, ...remember };
  }
  if (!sameTotals(body.totals, current.seenTotals)) {
    const review = [totalsChanged(current.seenTotals, body.totals, body.currency)];
    const changed: OpenCheckout = { ...seen, status: 'requires_escalation', review };
    const answer = failed(renderCheckout(ctx, changed, priced, { status: 'requires_escalation', messages: review }));
    return { result: { answer }, write: changed };
  }
  const { choice, messages } = choosePayment(paymentSetup(ctx), request.payment);
  if (!choice) return { result: { answer: failed({ ...body, messages: [...(body.messages ?? []), ...messages] }) }, ...remember };
  const email = seen.buyer?.email;
  // ready_for_complete needs the email (tenant policies always require it): never without it.
  if (email === undefined) throw new Error(`checkout ${seen.id} is ready_for_complete without the buyer's email`);
  const claimed = claimedSession(ctx, seen, priced, request, choice, claim, email);
  return { result: { attempt: claimed, choice, priced }, write: claimed };
}

function claimedSession(
  ctx: OperationContext,
  seen: OpenCheckout,
  priced: PricedCheckout,
  request: CheckoutCompleteRequest,
  choice: PaymentChoice,
  claim: string,
  email: string,
): CompletingCheckout {
  const billing = choice.instrument?.billing_address;
  const fields = {
    ...seen,
    status: 'complete_in_progress' as const,
    ...(request.payment?.instruments && { instruments: shownInstruments(request.payment.instruments) }),
    ...(request.signals && { signals: request.signals }),
    expiresAt: expiryFrom(ctx),
  };
  const completion = {
    claim,
    attemptAt: ctx.now(),
    handler: { id: choice.handler.id, type: choice.handler.type },
    placement: {
      reference: seen.id,
      quote: priced.request,
      expectedTotal: priced.quote.totals.total,
      buyer: { ...priced.request.buyer, email },
      ...(billing && { billingAddress: toStoreAddress(normalizeAddress(billing).address) }),
      ...(seen.verifiedClaims?.length && { verifiedClaims: seen.verifiedClaims }),
    },
    recipient: orderRecipient(ctx),
  };
  return { ...fields, completion, view: renderCheckout(ctx, fields, priced, { status: 'complete_in_progress', messages: [] }) };
}

/** `priced`: the claim's price, when this request made it (nothing placed with the store since). */
async function attempt(
  ctx: OperationContext,
  session: CompletingCheckout,
  choice: PaymentChoice,
  priced?: PricedCheckout,
): Promise<OperationResult> {
  const { placement } = session.completion;
  const charge = await choice.handler.charge({
    reference: session.id,
    amount: placement.expectedTotal,
    currency: session.view.currency,
    instrument: choice.instrument,
    signals: session.signals,
  });
  switch (charge.status) {
    case 'captured':
      return answer(
        ctx,
        session,
        await placeOrder(ctx, session, choice.handler, { mode: 'gateway_charged', record: charge.payment }),
        choice.index,
      );
    case 'store_charges': {
      // A handler that takes a credential is chosen only with an instrument that carries one (payments/choose.ts).
      const credential = choice.instrument?.credential;
      if (!credential) throw new Error(`payment handler ${choice.handler.id} lets the store charge, but no credential was chosen`);
      const payment = {
        mode: 'store_charged' as const,
        handlerId: choice.handler.id,
        credential: { type: credential.type, token: credential.token },
      };
      const withBilling = placement.billingAddress ? { ...payment, billingAddress: placement.billingAddress } : payment;
      return answer(ctx, session, await placeOrder(ctx, session, choice.handler, withBilling), choice.index);
    }
    case 'declined':
      return reopen(ctx, session, {}, [paymentFailed(charge.reason, choice.index ?? 0)], 'error', priced);
    case 'requires_buyer':
      return handOff(ctx, session, charge.reason, priced);
  }
}

/** The buyer continues on the store's checkout page for this checkout; the order placed there is reconciled later. */
async function handOff(
  ctx: OperationContext,
  session: CompletingCheckout,
  reason: string,
  priced?: PricedCheckout,
): Promise<OperationResult> {
  const made = await storePage(ctx, session.id, session.completion.placement.quote, session.storePage);
  await saveHandoff(ctx, session.id, session.completion.recipient);
  const patch: ReopenPatch = {
    escalation: { message: buyerActionRequired(reason), continueUrl: made.page.url },
    storePage: made.page,
    ...(made.handle !== undefined && { handle: made.handle }),
  };
  return reopen(ctx, session, patch, [], 'error', priced);
}

/** `instrument`: the position of the instrument used, for a decline's path. */
function answer(
  ctx: OperationContext,
  session: CompletingCheckout,
  placement: Placement,
  instrument = 0,
): Promise<OperationResult> | OperationResult {
  switch (placement.kind) {
    case 'completed':
      return placement.session ? success(storedView(placement.session)) : settledElsewhere(ctx, session.id);
    case 'pending':
      return success(storedView(session));
    case 'rejected':
      return placement.rejection.reason === 'payment_declined'
        ? reopen(ctx, session, {}, [paymentFailed(`${placement.rejection.detail}.`, instrument)])
        : reopen(ctx, session, { review: [orderRejected(placement.rejection)] }, []);
  }
}

/** The session as another request left it, when it settled the completion first. */
async function settledElsewhere(ctx: OperationContext, id: string): Promise<OperationResult> {
  const current = await checkoutRepository(ctx).find(id);
  if (!isLive(current, ctx.now())) return checkoutNotFound(ctx);
  if (isFrozen(current)) return success(storedView(current));
  if (!isOpen(current)) return getCheckout(ctx, id);
  return success(present(ctx, current, await priceCheckout(ctx, current, pickupLocationsOnce(ctx))).body);
}

/**
 * Back to an open status (decided afresh) with `patch` and `messages`; priced first (reusing
 * `earlier` when it priced the same request), then written while still claimed.
 */
async function reopen(
  ctx: OperationContext,
  claimed: CompletingCheckout,
  patch: ReopenPatch,
  messages: Message[],
  outcome: 'success' | 'error' = 'error',
  earlier?: PricedCheckout,
): Promise<OperationResult> {
  const opened = (session: CompletingCheckout) => reopened(session, expiryFrom(ctx), patch);
  const priced = await priceCheckout(ctx, opened(claimed), pickupLocationsOnce(ctx), { earlier });
  const answered = await whileClaimed(ctx, claimed, (current) => {
    const { session, body } = present(ctx, opened(current), priced, messages);
    return { session, result: outcome === 'error' ? failed(body) : success(body) };
  });
  return answered ?? settledElsewhere(ctx, claimed.id);
}

/** Step 4: the claiming request retried while its session is complete_in_progress. */
async function resume(ctx: OperationContext, session: CompletingCheckout, request: CheckoutCompleteRequest): Promise<OperationResult> {
  const recovery = await recover(ctx, session);
  switch (recovery.kind) {
    case 'waiting':
      return success(storedView(session));
    case 'settled_elsewhere':
      return settledElsewhere(ctx, session.id);
    case 'uncharged': {
      const { choice } = choosePayment(paymentSetup(ctx), request.payment);
      return choice ? attempt(ctx, recovery.leased, choice) : reopen(ctx, recovery.leased, {}, [completionInterrupted()], 'success');
    }
    default:
      return answer(ctx, session, recovery);
  }
}
