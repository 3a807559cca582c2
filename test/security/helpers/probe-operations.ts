/** Operations that report who the pipeline decided the caller is (cart and order capabilities). */
import { defineOperation, success } from '../../../src/capabilities/operation.js';
import { CAPABILITY } from '../../../src/protocol/capability-registry.js';

export const whoAmI = defineOperation({
  name: 'who_am_i',
  title: 'Who am I',
  description: 'Returns the principal; test-only.',
  capability: CAPABILITY.cart,
  rest: { method: 'GET', path: '/whoami', status: 200 },
  mcp: { id: false },
  handler: async (ctx) => success({ principal: ctx.caller.principal }),
});

export const orderProbe = defineOperation({
  name: 'order_probe',
  title: 'Order probe',
  description: 'An order-capability read that returns the principal; test-only.',
  capability: CAPABILITY.order,
  rest: { method: 'GET', path: '/order-probe/{id}', status: 200 },
  mcp: { id: true },
  handler: async (ctx, { id }) => success({ id, principal: ctx.caller.principal }),
});
