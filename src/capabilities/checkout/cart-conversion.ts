/**
 * A checkout from a cart (spec part 1 §2.5, §4.3): the caller's own live cart gives the lines,
 * context, buyer and codes. One open checkout per cart (upstream 2026-04-08 "idempotent
 * conversion"): the cart remembers the checkout made from it, and converting it again while that
 * checkout is open (not completed, canceled or expired) answers with that checkout. The new session
 * is written before the cart is linked to it by compare-and-set, so of two conversions at once the
 * one that loses knows the winner's checkout.
 */
import type { OperationContext } from '../context.js';
import { isLive as isLiveCart, type ActiveCart } from '../cart/cart-record.js';
import { cartRepository } from '../cart/cart-repository.js';
import { ownedByCaller } from '../cart/ownership.js';
import type { Basis } from './checkout-inputs.js';
import { isOpen, visibleTo, type CheckoutSession } from './checkout-record.js';
import { checkoutRepository } from './checkout-repository.js';

/** The caller's live cart, or null (missing, expired, canceled or another caller's look the same). */
export async function findCart(ctx: OperationContext, cartId: string): Promise<ActiveCart | null> {
  const cart = await cartRepository(ctx).find(cartId);
  return isLiveCart(cart, ctx.now()) && ownedByCaller(ctx, cart) ? cart : null;
}

export const cartBasis = (cart: ActiveCart): Basis => ({
  lines: cart.lines,
  context: cart.context,
  buyer: cart.buyer,
  carried: cart,
});

/** A cart's checkout that is not over: the caller's, live, and open or being completed (it is not done). */
export const ongoingFor = (ctx: OperationContext, session: CheckoutSession | null): session is CheckoutSession =>
  visibleTo(ctx, session) && (isOpen(session) || session.status === 'complete_in_progress');

/** The checkout converted from `cart`, while it is not over. */
async function ongoingCheckoutOf(ctx: OperationContext, cart: ActiveCart): Promise<string | undefined> {
  if (cart.checkoutId === undefined) return undefined;
  const session = await checkoutRepository(ctx).find(cart.checkoutId);
  return ongoingFor(ctx, session) ? session.id : undefined;
}

/**
 * Links the cart to the checkout just made from it, and answers with that checkout's id; or, when
 * another conversion linked the cart to a checkout that is still open meanwhile, with that one's.
 */
export async function linkCart(ctx: OperationContext, cartId: string, checkoutId: string): Promise<string> {
  return cartRepository(ctx).change(cartId, async (current) => {
    if (!isLiveCart(current, ctx.now())) return { result: checkoutId };
    const other = current.checkoutId === checkoutId ? undefined : await ongoingCheckoutOf(ctx, current);
    if (other !== undefined) return { result: other };
    return { result: checkoutId, write: { ...current, checkoutId } };
  });
}
