/** The cart operations (spec part 1 §4.2): REST routes and MCP tools come from these declarations. */
import { CartCreateRequest, CartUpdateRequest } from '../../../schemas/cart.js';
import { defineOperation } from '../operation.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { cancelCart, createCart, getCart, updateCart } from './cart-service.js';

const createCartOperation = defineOperation({
  name: 'create_cart',
  title: 'Create a cart',
  description:
    'Creates a cart from line items ({item: {id}, quantity}) with estimated totals priced by the store. Optional: context ' +
    '(buyer location, currency, eligibility claims), buyer, discounts.codes.',
  capability: CAPABILITY.cart,
  rest: { method: 'POST', path: '/carts', status: 201 },
  mcp: { id: false, payload: 'cart' },
  input: CartCreateRequest,
  idempotency: { mcp: 'optional' },
  embedded: 'cart',
  handler: (ctx, { payload }) => createCart(ctx, payload),
});

const getCartOperation = defineOperation({
  name: 'get_cart',
  title: 'Get a cart',
  description: 'Returns a cart with current prices, availability and estimated totals.',
  capability: CAPABILITY.cart,
  rest: { method: 'GET', path: '/carts/{id}', status: 200 },
  mcp: { id: true },
  embedded: 'cart',
  handler: (ctx, { id }) => getCart(ctx, id!),
});

const updateCartOperation = defineOperation({
  name: 'update_cart',
  title: 'Update a cart',
  description:
    'Replaces the line items of a cart (send every line to keep; a line keeps its id when it repeats it or the same item) and ' +
    'refreshes its expiry. context, buyer and discounts.codes replace the stored ones when present.',
  capability: CAPABILITY.cart,
  rest: { method: 'PUT', path: '/carts/{id}', status: 200 },
  mcp: { id: true, payload: 'cart' },
  input: CartUpdateRequest,
  idempotency: { mcp: 'optional' },
  embedded: 'cart',
  handler: (ctx, { id, payload }) => updateCart(ctx, id!, payload),
});

const cancelCartOperation = defineOperation({
  name: 'cancel_cart',
  title: 'Cancel a cart',
  description: 'Cancels a cart and returns it as it was; it cannot be read or updated afterwards.',
  capability: CAPABILITY.cart,
  rest: { method: 'POST', path: '/carts/{id}/cancel', status: 200 },
  mcp: { id: true },
  idempotency: { mcp: 'optional' },
  handler: (ctx, { id }) => cancelCart(ctx, id!),
});

export const cartOperations = [createCartOperation, getCartOperation, updateCartOperation, cancelCartOperation];
