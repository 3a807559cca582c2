/**
 * Step 1 of completing a checkout (complete.ts): the claim. The store prices the session first,
 * outside the compare-and-set, every provisional discount verified (step 2, verify-claims.ts).
 * Anything missing keeps it incomplete; a claim not verified is a recoverable `eligibility_invalid`
 * message, totals untouched; totals that differ from those last shown make it requires_escalation
 * with a `requires_buyer_review` message (and the store's page). Otherwise one compare-and-set
 * moves it from ready_for_complete to complete_in_progress, tied to the claiming request (a hash of
 * its idempotency key and body), and a recovery job is queued (recovery-queue.ts). Any other
 * complete meanwhile is refused; the same key and body is the pipeline's idempotency replay, or,
 * when the first run failed, a resume.
 *
 * Undo: `releaseClaim`, the session open again. Every later write of the session goes through
 * `whileClaimed`, so it lands only while this completion still holds it.
 */
import type { CheckoutCompleteRequest } from '../../../../schemas/checkout.js';
import type { OperationContext } from '../../context.js';
import { fingerprint } from '../../../security/fingerprint.js';
import { success, type OperationResult } from '../../operation.js';
import { normalizeAddress, toStoreAddress } from '../../../protocol/postal-address.js';
import type { PaymentChoice } from '../../../payments/choose.js';
import type { ChangePlan } from '../../../state/session-repository.js';
import { checkoutLineRefs } from '../../order/checkout-lines.js';
import { orderRecipient } from '../../order/order-recipient.js';
import { shownInstruments } from '../instruments.js';
import { checkoutNotFound, failed, presentedChanges, refused, sameTotals, withStoreCart } from '../answers.js';
import { pickupLocationsOnce, type Locations } from '../checkout-inputs.js';
import { pricingInputs, type PricedCheckout } from '../checkout-pricing.js';
import {
  expiryFrom,
  isOpen,
  reopened,
  settledOnStoreMaybe,
  visibleTo,
  withoutChallenge,
  type CheckoutSession,
  type CompletingCheckout,
  type OpenCheckout,
  type ReopenPatch,
} from '../checkout-record.js';
import { checkoutRepository } from '../checkout-repository.js';
import { renderCheckout } from '../checkout-shape.js';
import { paymentChoice } from './charge.js';
import { totalsChanged } from './messages.js';
import { attemptLeaseMs, enqueueRecovery } from './recovery-queue.js';
import { invalidClaimMessages, priceForCompletion, type SettledPrice } from './verify-claims.js';

/** What the steps after the claim need: no caller and no rendering, so the recovery job runs them too. */
export type CompletionContext = Pick<OperationContext, 'tenant' | 'store' | 'now' | 'log' | 'secret'>;

type Claim =
  /** Not claimed: the answer says why (not found, not ready, claims not verified, totals changed, no payment). */
  | { kind: 'answered'; answer: OperationResult }
  /** Claimed by this request; `priced`: the price the claim was decided on (nothing sent to the store since). */
  | { kind: 'claimed'; session: CompletingCheckout; choice: PaymentChoice; priced: PricedCheckout }
  /** Already claimed by this very request (same key and body), whose first run did not finish. */
  | { kind: 'resumed'; session: CompletingCheckout }
  /** The store may have settled it (a payment challenge, an order it reported): the store is asked first (challenge.ts). */
  | { kind: 'ask_store'; session: CheckoutSession };

/** `askStore`: false once the store was asked and settled nothing, so a waiting challenge is superseded. */
export async function claim(ctx: OperationContext, id: string, request: CheckoutCompleteRequest, askStore = true): Promise<Claim> {
  const claimHash = fingerprint([id, ctx.idempotencyKey ?? '', JSON.stringify(request)]);
  const locations = pickupLocationsOnce(ctx);
  const claimed = await checkoutRepository(ctx).changePriced<Claim, SettledPrice>(id, async (current) =>
    plan(ctx, current, request, claimHash, locations, askStore),
  );
  if (claimed.kind === 'claimed') await enqueueRecovery(ctx, claimed.session);
  return claimed;
}

function plan(
  ctx: OperationContext,
  current: CheckoutSession | null,
  request: CheckoutCompleteRequest,
  claimHash: string,
  locations: Locations,
  askStore: boolean,
): ChangePlan<Claim, CheckoutSession, SettledPrice> {
  const answered = (answer: OperationResult): { result: Claim } => ({ result: { kind: 'answered', answer } });
  if (!visibleTo(ctx, current)) return answered(checkoutNotFound(ctx));
  if (askStore && settledOnStoreMaybe(current)) return { result: { kind: 'ask_store', session: current } };
  if (current.status === 'complete_in_progress' && current.completion.claim === claimHash) {
    return { result: { kind: 'resumed', session: current } };
  }
  if (!isOpen(current)) return answered(refused(current));
  // A complete while the store waits for the buyer to confirm a payment supersedes it (challenge.ts).
  const open = withoutChallenge(current);
  const inputs = pricingInputs(ctx, open, 'complete');
  return {
    inputs: inputs.key,
    price: () => priceForCompletion(ctx, open, locations, inputs),
    apply: (settled) => decide(ctx, open, request, claimHash, settled),
  };
}

function decide(
  ctx: OperationContext,
  current: OpenCheckout,
  request: CheckoutCompleteRequest,
  claimHash: string,
  settled: SettledPrice,
): { result: Claim; write?: CheckoutSession } {
  const { priced, verified, invalid } = settled;
  const claims: OpenCheckout = {
    ...current,
    ...(verified.length > 0 && { verifiedClaims: [...(current.verifiedClaims ?? []), ...verified] }),
  };
  const { evaluation } = priced;
  const body = renderCheckout(ctx, claims, priced, evaluation);
  const seen: OpenCheckout = withStoreCart({ ...claims, status: evaluation.status, seenTotals: body.totals, notices: undefined }, priced);
  const remember = presentedChanges(current, seen) || claims !== current ? { write: seen } : {};
  const answered = (answer: OperationResult) => ({ result: { kind: 'answered' as const, answer }, ...remember });
  if (evaluation.status !== 'ready_for_complete') return answered(failed(body));

  // A claim the store did not verify affects the messages only (upstream checkout.md): the answer's
  // proto.status, the checkout's status and its totals stay as shown.
  if (invalid.length > 0) {
    const messages = [...(body.messages ?? []), ...invalidClaimMessages(invalid, current.context)];
    return answered(success({ ...body, messages }));
  }
  if (!sameTotals(body.totals, current.seenTotals)) {
    const review = [totalsChanged(current.seenTotals, body.totals, body.currency)];
    const changed: OpenCheckout = { ...seen, status: 'requires_escalation', review };
    const answer = failed(renderCheckout(ctx, changed, priced, { status: 'requires_escalation', messages: review }));
    return { result: { kind: 'answered', answer }, write: changed };
  }
  const { choice, messages } = paymentChoice(ctx, request);
  if (!choice) return answered(failed({ ...body, messages: [...(body.messages ?? []), ...messages] }));
  const email = seen.buyer?.email;
  // ready_for_complete needs the email (tenant policies always require it): never without it.
  if (email === undefined) throw new Error(`checkout ${seen.id} is ready_for_complete without the buyer's email`);
  const session = claimedSession(ctx, seen, priced, request, choice, claimHash, email);
  return { result: { kind: 'claimed', session, choice, priced }, write: session };
}

function claimedSession(
  ctx: OperationContext,
  seen: OpenCheckout,
  priced: PricedCheckout,
  request: CheckoutCompleteRequest,
  choice: PaymentChoice,
  claimHash: string,
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
    claim: claimHash,
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
    lines: checkoutLineRefs(priced.quote.lines),
  };
  return { ...fields, completion, view: renderCheckout(ctx, fields, priced, { status: 'complete_in_progress', messages: [] }) };
}

/**
 * Changes the session only while it is still being completed under `claimed`'s claim (and, with
 * `sameAttempt`, by `claimed`'s attempt); null when someone else got there first. When `claimed`
 * is the record this request wrote, it is not read back (state/session-repository.ts).
 */
export async function whileClaimed<T>(
  ctx: CompletionContext,
  claimed: CompletingCheckout,
  next: (current: CompletingCheckout) => { session: CheckoutSession; result: T },
  sameAttempt = false,
): Promise<T | null> {
  const { claim: claimHash, attemptAt } = claimed.completion;
  return checkoutRepository(ctx).change<T | null>(
    claimed.id,
    async (current) => {
      const ours =
        current?.status === 'complete_in_progress' &&
        current.completion.claim === claimHash &&
        (!sameAttempt || current.completion.attemptAt === attemptAt);
      if (!ours) return { result: null };
      const { session, result } = next(current);
      return { result, write: session };
    },
    claimed,
  );
}

/**
 * Undo: the session open again (its status decided afresh) with `patch`, while still claimed.
 * `present` makes the request's answer of it (and what the session keeps of that answer); without
 * one (the recovery job), the next read decides. Null when someone else settled the session first.
 */
export function releaseClaim<T = OpenCheckout>(
  ctx: CompletionContext,
  claimed: CompletingCheckout,
  patch: ReopenPatch,
  present?: (open: OpenCheckout) => { session: OpenCheckout; result: T },
): Promise<T | null> {
  return whileClaimed(ctx, claimed, (current) => {
    const open = reopened(current, expiryFrom(ctx), patch);
    return present ? present(open) : { session: open, result: open as T };
  });
}

/** The latest attempt may still be charging and placing: no other may start before its lease ends. */
export const attemptRunning = (ctx: CompletionContext, session: CompletingCheckout): boolean =>
  ctx.now() < session.completion.attemptAt + attemptLeaseMs(ctx);

/** A new attempt under the same claim (the last one is surely over), its recovery job queued; null when settled meanwhile. */
export async function leaseAttempt(ctx: CompletionContext, session: CompletingCheckout): Promise<CompletingCheckout | null> {
  const leased = await whileClaimed(
    ctx,
    session,
    (current) => {
      const next: CompletingCheckout = { ...current, completion: { ...current.completion, attemptAt: ctx.now() } };
      return { session: next, result: next };
    },
    true,
  );
  if (leased) await enqueueRecovery(ctx, leased);
  return leased;
}
