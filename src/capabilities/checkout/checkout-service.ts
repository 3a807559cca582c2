/**
 * The checkout capability's create, get, update and cancel (spec part 1 §2.9, §3, §4.3); complete
 * is in completion/complete.ts. Every open session is priced afresh by the store on each of them, and its
 * status decided by status.ts; what the answer showed is remembered (`seenTotals`), so complete
 * can tell whether prices changed since.
 *
 * A create with `cart_id` converts the caller's cart, once while its checkout is open (cart-conversion.ts).
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
import { callerOwner, ownedByCaller } from '../cart/ownership.js';
import { identifyLines, keepPricedLines } from '../pricing/line-ids.js';
import { nothingToBuy } from '../pricing/nothing-to-buy.js';
import { checkoutNotFound, expiryFrom, present, presentedChanges, refused } from './answers.js';
import { pickupLocationsOnce, priceCheckout, pricingInputs, type Locations, type PricedCheckout } from './checkout-pricing.js';
import {
  isFrozen,
  isLive,
  isOpen,
  newCheckoutId,
  type CanceledCheckout,
  type CheckoutSession,
  type OpenCheckout,
} from './checkout-record.js';
import { checkoutRepository } from './checkout-repository.js';
import { readInputs, type Basis, type ReadInputs } from './checkout-inputs.js';
import { cartBasis, findCart, linkCart, openCheckoutOf } from './cart-conversion.js';
import { renderCheckout, storedView } from './checkout-shape.js';

type Plan = ChangePlan<OperationResult, CheckoutSession, PricedCheckout>;

/** What the session keeps across an update besides the platform's inputs. */
type Kept = Pick<CheckoutSession, 'id' | 'owner' | 'handle' | 'storePage' | 'verifiedClaims'>;

function kept(session: CheckoutSession): Kept {
  const { id, owner, handle, storePage, verifiedClaims } = session;
  return {
    id,
    owner,
    ...(handle !== undefined && { handle }),
    ...(storePage && { storePage }),
    ...(verifiedClaims && { verifiedClaims }),
  };
}

/** A session from fresh inputs, before pricing. */
export const draftOf = (ctx: OperationContext, base: Kept, read: ReadInputs): OpenCheckout => ({
  ...base,
  ...read.inputs,
  expiresAt: expiryFrom(ctx),
  status: 'incomplete',
  seenTotals: [],
});

/**
 * The priced draft as the answer shows it; lines the store could not price are not kept. Pricing
 * decided the status of this draft with what it settled (the lines do not change the status).
 */
export const built = (ctx: OperationContext, draft: OpenCheckout, priced: PricedCheckout, read: ReadInputs) =>
  present(ctx, keepPricedLines({ ...draft, ...priced.settled }, priced.quote), priced, read.messages, priced.evaluation);

/** The answer of a create, and the new session's id (none when the store could price no line). */
interface Opened {
  result: OperationResult;
  id?: string;
}

/** A new session from `basis` and the request's other members; none when the store can price no line. */
async function open(ctx: OperationContext, request: CheckoutCreateRequest, basis: Basis): Promise<Opened> {
  const locations = pickupLocationsOnce(ctx);
  const read = await readInputs(ctx, request, basis, undefined, locations);
  const draft = draftOf(ctx, { id: newCheckoutId(), owner: callerOwner(ctx) }, read);
  const priced = await priceCheckout(ctx, draft, locations, { asks: read.asks });
  if (priced.quote.lines.length === 0) return { result: nothingToBuy(ctx, priced.quote, priced.refs) };
  const { session, body } = built(ctx, draft, priced, read);
  if (!(await checkoutRepository(ctx).insert(session))) throw new Error(`checkout id ${session.id} is already taken`);
  return { result: success(body, 201), id: session.id };
}

/** A checkout that already exists, as create answers with it: what get shows, 200 (nothing was created). */
async function existing(ctx: OperationContext, id: string): Promise<OperationResult> {
  const result = await getCheckout(ctx, id);
  return result.outcome === 'success' ? { ...result, status: 200 } : result;
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
  const converted = await openCheckoutOf(ctx, cart);
  if (converted !== undefined) return existing(ctx, converted);
  const { result, id } = await open(ctx, request, cartBasis(cart));
  if (id === undefined) return result;
  const linked = await linkCart(ctx, cart.id, id);
  if (linked === id) return result;
  // Another conversion of this cart won: nobody has seen this session's id, so it goes.
  await checkoutRepository(ctx).delete(id);
  return existing(ctx, linked);
}

/**
 * Shows the session; writes only what the answer changed (status, totals shown, the store's cart).
 * A session being completed is shown as it is (the completion queue settles it), and one completed
 * by a backend event is rendered once and kept.
 */
export async function getCheckout(ctx: OperationContext, id: string): Promise<OperationResult> {
  const locations = pickupLocationsOnce(ctx);
  return checkoutRepository(ctx).changePriced(id, async (current): Promise<Plan> => {
    if (!isLive(current, ctx.now()) || !ownedByCaller(ctx, current)) return { result: checkoutNotFound(ctx) };
    if (isFrozen(current)) return { result: success(storedView(current)) };
    const inputs = pricingInputs(ctx, current, isOpen(current) ? null : 'settled');
    const price = () => priceCheckout(ctx, current, locations, { inputs });
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
    if (!isLive(current, ctx.now()) || !ownedByCaller(ctx, current)) return { result: checkoutNotFound(ctx) };
    if (!isOpen(current)) return { result: refused(current) };
    const basis: Basis = {
      lines: identifyLines(request.line_items, current.lines),
      context: request.context,
      buyer: request.buyer,
    };
    const read = await readInputs(ctx, request, basis, current, locations);
    const draft = draftOf(ctx, kept(current), read);
    const inputs = pricingInputs(ctx, draft, read.asks);
    return {
      inputs: inputs.key,
      price: () => priceCheckout(ctx, draft, locations, { asks: read.asks, inputs }),
      apply: (priced) => {
        const { session, body } = built(ctx, draft, priced, read);
        return { result: success(body), write: session };
      },
    };
  });
}

/** Answers with the checkout as it was, now canceled; it keeps that answer until it expires. */
export async function cancelCheckout(ctx: OperationContext, id: string): Promise<OperationResult> {
  const locations: Locations = pickupLocationsOnce(ctx);
  return checkoutRepository(ctx).changePriced(id, async (current): Promise<Plan> => {
    if (!isLive(current, ctx.now()) || !ownedByCaller(ctx, current)) return { result: checkoutNotFound(ctx) };
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
