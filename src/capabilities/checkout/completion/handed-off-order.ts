/** A handed-off checkout's order, placed on the store and reported by it (webhooks/reconcile.ts). */
import type { OrderSnapshot } from '../../../../adapters/contract.js';
import type { OperationContext } from '../../context.js';
import { permalinkFor } from '../../order/permalink.js';
import { expiryFrom, isLive, isOpen, type CompletedCheckout } from '../checkout-record.js';
import { checkoutRepository } from '../checkout-repository.js';

/**
 * The store placed the order of a handed-off checkout: the session, while it is still open, is
 * completed with it. Its answer is rendered at the next read (the gateway has no caller here).
 */
export async function completeHandedOff(
  ctx: Pick<OperationContext, 'store' | 'tenant' | 'now' | 'secret'>,
  checkoutId: string,
  order: Pick<OrderSnapshot, 'id' | 'permalinkUrl'>,
): Promise<void> {
  const permalinkUrl = order.permalinkUrl ?? permalinkFor(ctx, order.id);
  await checkoutRepository(ctx).change(checkoutId, async (current) => {
    if (!isLive(current, ctx.now()) || !isOpen(current)) return { result: undefined };
    const completed: CompletedCheckout = {
      ...current,
      status: 'completed',
      order: { id: order.id, permalinkUrl },
      escalation: undefined,
      review: undefined,
      notices: undefined,
      view: undefined,
      expiresAt: expiryFrom(ctx),
    };
    return { result: undefined, write: completed };
  });
}
