/**
 * Carts belong to the caller that created them; any other caller is told `not_found`, exactly
 * as for a cart that does not exist, so ids leak nothing. The owner is the caller's profile URL
 * today; an authenticated principal can refine it here alone.
 */
import type { OperationContext } from '../../operations/context.js';
import type { CartRecord } from './cart-record.js';

export const cartOwner = (ctx: OperationContext): string => ctx.caller.profileUrl;

export const ownsCart = (ctx: OperationContext, cart: CartRecord): boolean => cart.owner === cartOwner(ctx);
