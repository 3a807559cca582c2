/**
 * Carts and checkout sessions belong to the caller that created them; any other caller is told
 * `not_found`, exactly as for one that does not exist, so ids leak nothing. The owner is the
 * caller's profile URL today; an authenticated principal can refine it here alone.
 */
import type { OperationContext } from '../context.js';

export const callerOwner = (ctx: OperationContext): string => ctx.caller.profileUrl;

export const ownedByCaller = (ctx: OperationContext, session: { owner: string }): boolean => session.owner === callerOwner(ctx);
