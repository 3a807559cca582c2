/**
 * Every protocol operation the gateway serves. Capabilities add theirs here; REST routes, MCP
 * tools, A2A actions and the embedded page's calls are generated from this one list.
 */
import { cartOperations } from '../capabilities/cart/operations.js';
import { catalogOperations } from '../capabilities/catalog/operations.js';
import { checkoutOperations } from '../capabilities/checkout/operations.js';
import { orderOperations } from '../capabilities/order/operations.js';
import type { OperationDefinition } from '../capabilities/operation.js';

export const operations: readonly OperationDefinition[] = [
  ...catalogOperations,
  ...cartOperations,
  ...checkoutOperations,
  ...orderOperations,
];
