/**
 * get_order (spec part 2 §4.1): the order as the store has it now, to a caller allowed to see
 * it. The gateway's order record says who that is, so a caller that may not read the order is
 * told `unauthorized` without the store being asked; an order the gateway never placed, or one
 * the store no longer has, is `not_found`. Both are unrecoverable business outcomes.
 */
import type { OperationContext } from '../context.js';
import { failure, success, type OperationResult } from '../operation.js';
import { errorMessage } from '../../protocol/messages.js';
import { mayReadOrder } from './access.js';
import { loadOrderRecord } from './order-record.js';
import { orderRefs, renderOrder } from './order-shape.js';

export async function getOrder(ctx: OperationContext, orderId: string): Promise<OperationResult> {
  const notFound = failure([errorMessage('not_found', `No order ${orderId} exists at ${ctx.tenant.name}.`, 'unrecoverable')]);
  const record = await loadOrderRecord(ctx, orderId);
  if (!record) return notFound;
  if (!mayReadOrder(ctx.caller.principal, record)) {
    return failure([
      errorMessage(
        'unauthorized',
        'This order was placed by another platform or buyer; these credentials cannot read it.',
        'unrecoverable',
      ),
    ]);
  }
  const order = await ctx.tenant.adapter.getOrder(orderId);
  if (!order) return notFound;
  return success(renderOrder(order, orderRefs(ctx, order, record)));
}
