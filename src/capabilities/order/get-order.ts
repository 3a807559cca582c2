/**
 * get_order (spec part 2 §4.1): the order as the store has it now, to a caller allowed to see
 * it. The gateway's order record says who that is, so a caller that may not read the order is
 * told `unauthorized` (the store is asked only to match a buyer on its customer or email); an order the gateway never placed, or one
 * the store no longer has, is `not_found`. Both are unrecoverable business outcomes.
 */
import type { OrderSnapshot } from '../../../adapters/contract.js';
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
  // Read once, and only when needed: to answer, or to match a buyer the record does not name.
  let read: Promise<OrderSnapshot | null> | undefined;
  const order = () => (read ??= ctx.tenant.adapter.getOrder(orderId));
  if (!(await mayReadOrder(ctx.caller.principal, record, order))) {
    return failure([
      errorMessage(
        'unauthorized',
        'This order was placed by another platform or buyer; these credentials cannot read it.',
        'unrecoverable',
      ),
    ]);
  }
  const placed = await order();
  if (!placed) return notFound;
  return success(renderOrder(placed, orderRefs(ctx, placed, record)));
}
