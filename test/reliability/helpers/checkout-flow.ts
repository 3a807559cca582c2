/**
 * The one flow the suites cannot derive from schemas: a checkout walked to ready_for_complete
 * (buyer, a Chicago shipping address, the cheapest option of every group) and completed with a
 * sandbox payment, which places an order. Operations are found in the table by name.
 */
import type { FastifyInstance } from 'fastify';
import type { OperationDefinition } from '../../../src/capabilities/operation.js';
import { operations } from '../../../src/pipeline/table.js';
import { pay } from '../../helpers/sandbox-payment.js';
import { send, type Answer, type Target, type Transport } from './operation-client.js';

const byName = (name: string): OperationDefinition | undefined => operations.find((op) => op.name === name);

export const checkoutOps = {
  create: byName('create_checkout'),
  update: byName('update_checkout'),
  complete: byName('complete_checkout'),
};

const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };
const CHICAGO = {
  street_address: '123 Main St',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60601',
};

function expectSuccess(step: string, answer: Answer): any {
  if (answer.kind !== 'success') throw new Error(`checkout ${step}: ${answer.text.slice(0, 400)}`);
  return answer.body;
}

/** A checkout of `lines` owned by `profile`, ready for complete; returns its id. */
export async function readyCheckout(
  target: FastifyInstance | Target,
  profile: string,
  lines: unknown[],
  transport: Transport = 'rest',
): Promise<string> {
  const { create, update } = checkoutOps;
  if (!create || !update) throw new Error('the operation table has no checkout');
  const created = expectSuccess(
    'create',
    await send(target, { op: create, transport, profile, payload: { line_items: lines, buyer: BUYER } }),
  );
  const items = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
  const shipping = { type: 'shipping', destinations: [CHICAGO] };
  const withDestination = expectSuccess(
    'destination',
    await send(target, {
      op: update,
      transport,
      profile,
      id: created.id,
      payload: { line_items: items, buyer: BUYER, fulfillment: { methods: [shipping] } },
    }),
  );
  const methods = withDestination.fulfillment.methods.map((m: any) => ({
    id: m.id,
    type: m.type,
    destinations: m.destinations,
    selected_destination_id: m.selected_destination_id,
    groups: m.groups.map((g: any) => ({ id: g.id, selected_option_id: g.options[0].id })),
  }));
  const ready = expectSuccess(
    'options',
    await send(target, {
      op: update,
      transport,
      profile,
      id: created.id,
      payload: { line_items: items, buyer: BUYER, fulfillment: { methods } },
    }),
  );
  if (ready.status !== 'ready_for_complete')
    throw new Error(`checkout ${created.id} is ${ready.status}: ${JSON.stringify(ready.messages)}`);
  return created.id;
}

export async function completeCheckout(
  target: FastifyInstance | Target,
  profile: string,
  id: string,
  key?: string,
  transport: Transport = 'rest',
): Promise<Answer> {
  if (!checkoutOps.complete) throw new Error('the operation table has no checkout completion');
  return send(target, { op: checkoutOps.complete, transport, profile, id, payload: pay(), ...(key !== undefined && { key }) });
}
