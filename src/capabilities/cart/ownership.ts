/**
 * Carts and checkout sessions belong to the caller that created them; any other caller is told
 * `not_found`, exactly as for one that does not exist, so ids leak nothing. The owner is what the
 * caller's credentials prove (security/auth/principal.ts `ownerOf`): an unauthenticated caller
 * naming a platform's profile URL never matches what that platform created authenticated.
 * Sessions written before owners took this form (a bare profile URL) match no caller and expire.
 */
import type { OperationContext } from '../context.js';

export const callerOwner = (ctx: OperationContext): string => ctx.caller.owner;

export const ownedByCaller = (ctx: OperationContext, session: { owner: string }): boolean => session.owner === callerOwner(ctx);
