/** The checkout operations (spec part 1 §4.3): REST routes and MCP tools come from these declarations. */
import { CheckoutCompleteRequest, CheckoutCreateRequest, CheckoutUpdateRequest } from '../../../schemas/checkout.js';
import { defineOperation } from '../operation.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { cancelCheckout, createCheckout, getCheckout, updateCheckout } from './checkout-service.js';
import { completeCheckout } from './completion/complete.js';

const createCheckoutOperation = defineOperation({
  name: 'create_checkout',
  title: 'Create a checkout session',
  description:
    'Starts a checkout from line items ({item: {id}, quantity}) or from a cart (cart_id: its items, context, buyer and ' +
    'discount codes). The answer lists in messages what is still missing (code "missing" with the JSONPath to fill in). ' +
    'Optional: buyer, context, discounts.codes, fulfillment.methods.',
  capability: CAPABILITY.checkout,
  rest: { method: 'POST', path: '/checkout-sessions', status: 201 },
  mcp: { id: false, payload: 'checkout' },
  input: CheckoutCreateRequest,
  idempotency: { mcp: 'optional' },
  embedded: 'checkout',
  handler: (ctx, { payload }) => createCheckout(ctx, payload),
});

const getCheckoutOperation = defineOperation({
  name: 'get_checkout',
  title: 'Get a checkout session',
  description:
    'Returns a checkout session with current prices and status; while its order is being placed (complete_in_progress), poll ' +
    'this until it is completed.',
  capability: CAPABILITY.checkout,
  rest: { method: 'GET', path: '/checkout-sessions/{id}', status: 200 },
  mcp: { id: true },
  embedded: 'checkout',
  handler: (ctx, { id }) => getCheckout(ctx, id!),
});

const updateCheckoutOperation = defineOperation({
  name: 'update_checkout',
  title: 'Update a checkout session',
  description:
    'Replaces the whole session: resend everything to keep (line_items, buyer, context, discounts.codes, fulfillment.methods ' +
    'with their ids, destinations, selected_destination_id and groups[].selected_option_id); what is not resent is dropped.',
  capability: CAPABILITY.checkout,
  rest: { method: 'PUT', path: '/checkout-sessions/{id}', status: 200 },
  mcp: { id: true, payload: 'checkout' },
  input: CheckoutUpdateRequest,
  idempotency: { mcp: 'optional' },
  embedded: 'checkout',
  handler: (ctx, { id, payload }) => updateCheckout(ctx, id!, payload),
});

const completeCheckoutOperation = defineOperation({
  name: 'complete_checkout',
  title: 'Complete a checkout session',
  description:
    'Places the order of a ready_for_complete session: payment.instruments (the selected one with the credential its payment ' +
    'handler issued) and signals (e.g. dev.proto.buyer_ip, dev.proto.user_agent). Requires meta["idempotency-key"]; retry with ' +
    'the same key and body.',
  capability: CAPABILITY.checkout,
  rest: { method: 'POST', path: '/checkout-sessions/{id}/complete', status: 200 },
  mcp: { id: true, payload: 'checkout' },
  input: CheckoutCompleteRequest,
  idempotency: { mcp: 'required' },
  embedded: 'checkout',
  handler: (ctx, { id, payload }) => completeCheckout(ctx, id!, payload),
});

const cancelCheckoutOperation = defineOperation({
  name: 'cancel_checkout',
  title: 'Cancel a checkout session',
  description: 'Cancels a checkout session that is not completed and returns it, status canceled; it does not change afterwards.',
  capability: CAPABILITY.checkout,
  rest: { method: 'POST', path: '/checkout-sessions/{id}/cancel', status: 200 },
  mcp: { id: true },
  idempotency: { mcp: 'optional' },
  handler: (ctx, { id }) => cancelCheckout(ctx, id!),
});

export const checkoutOperations = [
  createCheckoutOperation,
  getCheckoutOperation,
  updateCheckoutOperation,
  completeCheckoutOperation,
  cancelCheckoutOperation,
];
