/** The order operations (spec part 2 §4.1): every transport's binding from one declaration. */
import { defineOperation } from '../operation.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { getOrder } from './get-order.js';

const getOrderOperation = defineOperation({
  name: 'get_order',
  title: 'Get an order',
  description:
    'Returns the current state of an order: every line item that ever existed with its quantities (original, total, fulfilled) ' +
    'and status, delivery expectations, shipment events, adjustments (refunds, returns, cancellations) and totals. Platforms ' +
    "reach the orders they placed; a buyer token with dev.proto.shopping.order:read reaches that buyer's orders. Read " +
    '`messages` first: not_found and unauthorized come back there.',
  capability: CAPABILITY.order,
  rest: { method: 'GET', path: '/orders/{id}', status: 200 },
  mcp: { id: true },
  handler: (ctx, { id }) => getOrder(ctx, id!),
});

export const orderOperations = [getOrderOperation];
