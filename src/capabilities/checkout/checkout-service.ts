/**
 * The checkout capability's create, get, update and cancel (spec part 1 §2.9, §3, §4.3); complete
 * is in completion/complete.ts. Each runs its steps once, in order: the request read into the
 * session to price (checkout-inputs.ts; create and update), the session priced by the store, one
 * quote, and its status decided (checkout-pricing.ts, status.ts), the answer presented
 * (answers.ts, checkout-shape.ts), the session written. What the answer showed is remembered
 * (`seenTotals`), so complete can tell whether prices changed since.
 *
 * A create with `cart_id` converts the caller's cart, once while its checkout is open
 * (cart-conversion.ts): converting it again answers with that checkout, as get shows it.
 *
 * Transitions: incomplete <-> ready_for_complete as things are supplied or change; an update
 * clears a pending escalation or review (requires_escalation -> incomplete or ready); cancel from
 * any open status. A session being completed, completed or canceled refuses update and cancel.
 */
import type { CheckoutCreateRequest, CheckoutUpdateRequest } from '../../../schemas/checkout.js';
import type { OperationContext } from '../context.js';
import { failure, success, type OperationResult } from '../operation.js';
import { errorMessage } from '../../protocol/messages.js';
import type { ChangePlan } from '../../state/session-repository.js';
import { identifyLines, keepPricedLines } from '../pricing/line-ids.js';
import { nothingToBuy } from '../pricing/nothing-to-buy.js';
import { checkoutNotFound, present, presentedChanges, refused } from './answers.js';
import { cartBasis, findCart, linkCart, ongoingFor } from './cart-conversion.js';
import { pickupLocationsOnce, readDraft, type Basis, type Draft } from './checkout-inputs.js';
import { priceCheckout, pricingInputs, type PricedCheckout } from './checkout-pricing.js';
import { isFrozen, isOpen, visibleTo, type CanceledCheckout, type CheckoutSession } from './checkout-record.js';
import { checkoutRepository } from './checkout-repository.js';
import { renderCheckout, storedView } from './checkout-shape.js';

type Plan<T = OperationResult> = ChangePlan<T, CheckoutSession, PricedCheckout>;

/** The priced draft as the answer shows it; lines the store could not price are not kept. */
export const built = (ctx: OperationContext, draft: Draft, priced: PricedCheckout) =>
  present(ctx, keepPricedLines({ ...draft.session, ...priced.settled }, priced.quote), priced, draft.messages);

/** The answer of a create, the new session's id (none when the store could price no line) and its price. */
interface Opened {
  result: OperationResult;
  id?: string;
  priced: PricedCheckout;
}

/** A new session from `basis` and the request's other members; none when the store can price no line. */
async function open(ctx: OperationContext, request: CheckoutCreateRequest, basis: Basis): Promise<Opened> {
  const locations = pickupLocationsOnce(ctx);
  const draft = await readDraft(ctx, request, basis, locations);
  const priced = await priceCheckout(ctx, draft.session, locations, { asks: draft.asks });
  if (priced.quote.lines.length === 0) return { result: nothingToBuy(ctx, priced.quote, priced.refs), priced };
  const { session, body } = built(ctx, draft, priced);
  if (!(await checkoutRepository(ctx).insert(session))) throw new Error(`checkout id ${session.id} is already taken`);
  return { result: success(body, 201), id: session.id, priced };
}

export async function createCheckout(ctx: OperationContext, request: CheckoutCreateRequest): Promise<OperationResult> {
  if (request.cart_id === undefined) {
    const lines = identifyLines(request.line_items ?? [], []);
    return (await open(ctx, request, { lines, context: request.context, buyer: request.buyer })).result;
  }
  const cart = await findCart(ctx, request.cart_id);
  if (!cart) {
    return failure([errorMessage('not_found', 'This cart does not exist, has expired or was canceled.', 'unrecoverable', '$.cart_id')], {
      continue_url: ctx.tenant.adapter.storefrontUrl,
    });
  }
  // Converted already, its checkout not over: that checkout, as get shows it (one read, one quote).
  const converted = cart.checkoutId === undefined ? null : await show(ctx, cart.checkoutId, (s) => ongoingFor(ctx, s));
  if (converted) return existing(converted);
  const { result, id, priced } = await open(ctx, request, cartBasis(cart));
  if (id === undefined) return result;
  const linked = await linkCart(ctx, cart.id, id);
  if (linked === id) return result;
  // Another conversion of this cart won: nobody has seen this session's id, so it goes. The
  // winner's session prices the same request as this one did, unless its store cart differs.
  await checkoutRepository(ctx).delete(id);
  return existing((await show(ctx, linked, (s) => visibleTo(ctx, s), priced)) ?? checkoutNotFound(ctx));
}

/** A checkout that already exists, as create answers with it: what get shows, 200 (nothing was created). */
const existing = (result: OperationResult): OperationResult => (result.outcome === 'success' ? { ...result, status: 200 } : result);

/**
 * Shows the session; writes only what the answer changed (status, totals shown, the store's cart).
 * A session being completed is shown as it is (the completion queue settles it), and one completed
 * by a backend event is rendered once and kept.
 */
export async function getCheckout(ctx: OperationContext, id: string): Promise<OperationResult> {
  return (await show(ctx, id, (s) => visibleTo(ctx, s))) ?? checkoutNotFound(ctx);
}

/**
 * What get shows of the session `shows` accepts, or null (for get: not found). `earlier`: a price
 * this request already made (see checkout-pricing.ts), reused when it priced the same request.
 */
async function show(
  ctx: OperationContext,
  id: string,
  shows: (current: CheckoutSession | null) => current is CheckoutSession,
  earlier?: PricedCheckout,
): Promise<OperationResult | null> {
  const locations = pickupLocationsOnce(ctx);
  return checkoutRepository(ctx).changePriced(id, async (current): Promise<Plan<OperationResult | null>> => {
    if (!shows(current)) return { result: null };
    if (isFrozen(current)) return { result: success(storedView(current)) };
    const inputs = pricingInputs(ctx, current, isOpen(current) ? null : 'settled');
    const price = () => priceCheckout(ctx, current, locations, { inputs, earlier });
    if (!isOpen(current)) {
      return {
        inputs: inputs.key,
        price,
        apply: (priced) => {
          const settled = { ...current, view: renderCheckout(ctx, current, priced, { status: current.status, messages: [] }) };
          return { result: success(storedView(settled)), write: settled };
        },
      };
    }
    return {
      inputs: inputs.key,
      price,
      apply: (priced) => {
        const { session, body } = present(ctx, current, priced);
        return { result: success(body), ...(presentedChanges(current, session) && { write: session }) };
      },
    };
  });
}

/** Replaces every input (what is not resent is dropped) and refreshes the expiry. */
export async function updateCheckout(ctx: OperationContext, id: string, request: CheckoutUpdateRequest): Promise<OperationResult> {
  const locations = pickupLocationsOnce(ctx);
  return checkoutRepository(ctx).changePriced(id, async (current): Promise<Plan> => {
    if (!visibleTo(ctx, current)) return { result: checkoutNotFound(ctx) };
    if (!isOpen(current)) return { result: refused(current) };
    const basis: Basis = {
      lines: identifyLines(request.line_items, current.lines),
      context: request.context,
      buyer: request.buyer,
    };
    const draft = await readDraft(ctx, request, basis, locations, current);
    const inputs = pricingInputs(ctx, draft.session, draft.asks);
    return {
      inputs: inputs.key,
      price: () => priceCheckout(ctx, draft.session, locations, { asks: draft.asks, inputs }),
      apply: (priced) => {
        const { session, body } = built(ctx, draft, priced);
        return { result: success(body), write: session };
      },
    };
  });
}

/** Answers with the checkout as it was, now canceled; it keeps that answer until it expires. */
export async function cancelCheckout(ctx: OperationContext, id: string): Promise<OperationResult> {
  const locations = pickupLocationsOnce(ctx);
  return checkoutRepository(ctx).changePriced(id, async (current): Promise<Plan> => {
    if (!visibleTo(ctx, current)) return { result: checkoutNotFound(ctx) };
    if (!isOpen(current)) return { result: refused(current) };
    const inputs = pricingInputs(ctx, current);
    return {
      inputs: inputs.key,
      price: () => priceCheckout(ctx, current, locations, { inputs }),
      apply: (priced) => {
        const view = renderCheckout(ctx, current, priced, { status: 'canceled', messages: [] });
        const canceled: CanceledCheckout = { ...current, status: 'canceled', escalation: undefined, review: undefined, view };
        return { result: success(storedView(canceled)), write: canceled };
      },
    };
  });
}
