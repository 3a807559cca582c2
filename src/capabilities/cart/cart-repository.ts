/** Carts in the state store under `cart:{tenant}:{id}` (see state/session-repository.ts). */
import type { OperationContext } from '../context.js';
import { SessionRepository } from '../../state/session-repository.js';
import type { CartRecord } from './cart-record.js';

export const cartRepository = (ctx: Pick<OperationContext, 'store' | 'tenant' | 'now'>) =>
  new SessionRepository<CartRecord>({ store: ctx.store, kind: 'cart', tenantId: ctx.tenant.id, now: ctx.now });
