/** Checkout sessions in the state store under `checkout:{tenant}:{id}` (see state/session-repository.ts). */
import type { OperationContext } from '../context.js';
import { SessionRepository } from '../../state/session-repository.js';
import type { CheckoutSession } from './checkout-record.js';

export const checkoutRepository = (ctx: Pick<OperationContext, 'store' | 'tenant' | 'now'>) =>
  new SessionRepository<CheckoutSession>({ store: ctx.store, kind: 'checkout', tenantId: ctx.tenant.id, now: ctx.now });
