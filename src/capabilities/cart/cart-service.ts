/**
 * The cart capability (spec part 1 §2.5, §4.2): create, read, replace and cancel carts kept in
 * the state store, each answer priced afresh by the store (in its own cart, the handle) before
 * the cart is written: a write that meets a concurrent one decides again on the fresh cart and
 * reuses the price when the inputs are the same.
 *
 * Business outcomes: a create where nothing can be bought makes no cart (all sold out:
 * `out_of_stock`, unrecoverable); a cart that is missing, expired, canceled or another caller's
 * is `not_found`, unrecoverable. Both come with a `continue_url` to the store.
 */
import type { CartCreateRequest, CartUpdateRequest } from '../../../schemas/cart.js';
import type { OperationContext } from '../context.js';
import { failure, success, type OperationResult } from '../operation.js';
import { errorMessage } from '../../protocol/messages.js';
import { readCart } from '../../extensions/steps.js';
import { identifyLines, keepPricedLines } from '../pricing/line-ids.js';
import { nothingToBuy } from '../pricing/nothing-to-buy.js';
import type { ChangePlan, SessionChange } from '../../state/session-repository.js';
import { cartInputs, priceCart, withStoreCart, type PricedCart } from './cart-pricing.js';
import { isLive, newCartId, type ActiveCart, type CanceledCart, type CartRecord } from './cart-record.js';
import { cartRepository } from './cart-repository.js';
import { renderCart } from './cart-shape.js';
import { callerOwner, ownedByCaller } from './ownership.js';

type CartRequest = CartCreateRequest | CartUpdateRequest;

/** Members a request may leave out: present ones replace, absent ones keep the stored value. */
function carriedInputs(request: CartRequest, stored?: ActiveCart): Pick<ActiveCart, 'context' | 'buyer' | 'signals' | 'attribution'> {
  const context = request.context ?? stored?.context;
  const buyer = request.buyer ?? stored?.buyer;
  const signals = request.signals ?? stored?.signals;
  const attribution = request.attribution ?? stored?.attribution;
  return { ...(context && { context }), ...(buyer && { buyer }), ...(signals && { signals }), ...(attribution && { attribution }) };
}

/** The same answer whether the cart never existed, expired, was canceled or is someone else's. */
function cartNotFound(ctx: OperationContext): OperationResult {
  return failure([errorMessage('not_found', 'This cart does not exist, has expired or was canceled.', 'unrecoverable')], {
    continue_url: ctx.tenant.adapter.storefrontUrl,
  });
}

export async function createCart(ctx: OperationContext, request: CartCreateRequest): Promise<OperationResult> {
  const draft: ActiveCart = {
    state: 'active',
    id: newCartId(),
    owner: callerOwner(ctx),
    expiresAt: ctx.now() + ctx.tenant.policies.cartTtlMs,
    lines: identifyLines(request.line_items, []),
    ...carriedInputs(request),
    ...readCart(ctx, request),
  };
  const priced = await priceCart(ctx, draft);
  if (priced.quote.lines.length === 0) return nothingToBuy(ctx, priced.quote, priced.refs);
  const cart = withStoreCart(keepPricedLines(draft, priced.quote), priced);
  if (!(await cartRepository(ctx).insert(cart))) throw new Error(`cart id ${cart.id} is already taken`);
  return success(renderCart(ctx, cart, priced), 201);
}

type CartPlan = ChangePlan<OperationResult, CartRecord, PricedCart>;

/** A change of the caller's live cart: `draftOf` gives the cart to price, `apply` decides from its price. */
function onLiveCart(
  ctx: OperationContext,
  current: CartRecord | null,
  draftOf: (cart: ActiveCart) => ActiveCart,
  apply: (draft: ActiveCart, priced: PricedCart) => SessionChange<OperationResult, CartRecord>,
): CartPlan {
  if (!isLive(current, ctx.now()) || !ownedByCaller(ctx, current)) return { result: cartNotFound(ctx) };
  const draft = draftOf(current);
  return { inputs: cartInputs(ctx, draft), price: () => priceCart(ctx, draft), apply: (priced) => apply(draft, priced) };
}

/** Writes only when the store replaced its cart or the page changed. */
export async function getCart(ctx: OperationContext, id: string): Promise<OperationResult> {
  return cartRepository(ctx).changePriced(id, async (current) =>
    onLiveCart(
      ctx,
      current,
      (cart) => cart,
      (cart, priced) => {
        const stored = withStoreCart(cart, priced);
        const changed = stored.handle !== cart.handle || stored.storePage?.key !== cart.storePage?.key;
        return { result: success(renderCart(ctx, stored, priced)), ...(changed && { write: stored }) };
      },
    ),
  );
}

/** Replaces the lines (ids kept where they match) and refreshes the expiry; a canceled cart stays canceled. */
export async function updateCart(ctx: OperationContext, id: string, request: CartUpdateRequest): Promise<OperationResult> {
  const replaced = (current: ActiveCart): ActiveCart => ({
    state: 'active',
    id: current.id,
    owner: current.owner,
    expiresAt: ctx.now() + ctx.tenant.policies.cartTtlMs,
    lines: identifyLines(request.line_items, current.lines),
    ...carriedInputs(request, current),
    ...readCart(ctx, request, current),
    ...(current.handle !== undefined && { handle: current.handle }),
    ...(current.storePage && { storePage: current.storePage }),
    ...(current.checkoutId !== undefined && { checkoutId: current.checkoutId }),
  });
  return cartRepository(ctx).changePriced(id, async (current) =>
    onLiveCart(ctx, current, replaced, (draft, priced) => {
      const cart = withStoreCart(keepPricedLines(draft, priced.quote), priced);
      return { result: success(renderCart(ctx, cart, priced)), write: cart };
    }),
  );
}

/** Answers with the cart as it was, ending now; leaves a tombstone without buyer data until its expiry. */
export async function cancelCart(ctx: OperationContext, id: string): Promise<OperationResult> {
  return cartRepository(ctx).changePriced(id, async (current) =>
    onLiveCart(
      ctx,
      current,
      (cart) => cart,
      (cart, priced) => {
        const canceledAt = ctx.now();
        const tombstone: CanceledCart = { state: 'canceled', id: cart.id, owner: cart.owner, expiresAt: cart.expiresAt, canceledAt };
        return { result: success(renderCart(ctx, cart, priced, canceledAt)), write: tombstone };
      },
    ),
  );
}
