/** A read that touches neither the state store nor the backend: it still answers while Redis is down. */
import { defineOperation, success } from '../../../src/capabilities/operation.js';
import { CAPABILITY } from '../../../src/protocol/capability-registry.js';

export const echo = defineOperation({
  name: 'echo',
  title: 'Echo',
  description: 'Answers with the id it was given; test-only.',
  capability: CAPABILITY.cart,
  rest: { method: 'GET', path: '/echo/{id}', status: 200 },
  mcp: { id: true },
  async handler(_ctx, { id }) {
    return success({ id });
  },
});
