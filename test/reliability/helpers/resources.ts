/**
 * The resources callers own, found in the operation table rather than listed by hand: a
 * capability whose table has a create operation (REST 201 taking `line_items`) and a read
 * operation (GET by id) holds resources (carts, checkout sessions); a capability with only a read
 * by id holds resources another flow produces (orders, from a completed checkout). Suites produce
 * them as one caller and watch them through the read operation, as the owner would see them.
 */
import type { FastifyInstance } from 'fastify';
import type { OperationDefinition } from '../../../src/capabilities/operation.js';
import { completeCheckout, readyCheckout } from './checkout-flow.js';
import { send, type Answer, type Target, type Transport } from './operation-client.js';

export interface ResourceKind {
  capability: string;
  /** The operation that creates one, when one does. */
  create?: OperationDefinition;
  read: OperationDefinition;
  /** The full replacement of the resource (REST PUT), when it has one. */
  update?: OperationDefinition;
  /** Operations that take this resource's id. */
  byId: OperationDefinition[];
  /** Makes a new resource owned by `profile`; returns its id. */
  produce(target: FastifyInstance | Target, profile: string, transport?: Transport): Promise<string>;
  /** Makes one as far along as it goes before it ends (a checkout ready for complete), when that differs. */
  produceReady?(target: FastifyInstance | Target, profile: string): Promise<string>;
}

/** A line the demo store always sells. */
export const SEED_LINES = [{ item: { id: 'bouquet_roses' }, quantity: 1 }];

const takesLineItems = (op: OperationDefinition) =>
  Boolean((op.input as { properties?: Record<string, unknown> } | undefined)?.properties?.line_items);

/** Resources no single operation creates, by capability: how they come to exist. */
const PRODUCERS: Record<string, ResourceKind['produce']> = {
  'dev.proto.shopping.order': async (target, profile, transport) => {
    const id = await readyCheckout(target, profile, SEED_LINES, transport);
    const answer = await completeCheckout(target, profile, id, undefined, transport);
    if (answer.kind !== 'success' || typeof answer.body?.order?.id !== 'string')
      throw new Error(`no order from checkout ${id}: ${answer.text.slice(0, 400)}`);
    return answer.body.order.id as string;
  },
};

/** Resources that have a state worth reaching before fuzzing them, by capability. */
const READY: Record<string, NonNullable<ResourceKind['produceReady']>> = {
  'dev.proto.shopping.checkout': (target, profile) => readyCheckout(target, profile, SEED_LINES),
};

export function resourceKinds(operations: readonly OperationDefinition[]): ResourceKind[] {
  const kinds: ResourceKind[] = [];
  const capabilities = new Set(operations.filter((op) => op.mcp.id && op.rest.method === 'GET').map((op) => op.capability));
  for (const capability of capabilities) {
    const same = operations.filter((op) => op.capability === capability);
    const byId = same.filter((op) => op.mcp.id);
    const read = byId.find((op) => op.rest.method === 'GET')!;
    const update = byId.find((op) => op.rest.method === 'PUT');
    const create = same.find((op) => op.rest.status === 201 && takesLineItems(op));
    const common = { capability, read, byId, ...(update && { update }), ...(READY[capability] && { produceReady: READY[capability] }) };
    if (create)
      kinds.push({ ...common, create, produce: (target, profile, transport) => createResource(target, create, profile, transport) });
    else if (PRODUCERS[capability]) kinds.push({ ...common, produce: PRODUCERS[capability] });
  }
  return kinds;
}

export const kindOf = (kinds: readonly ResourceKind[], op: OperationDefinition) => kinds.find((k) => k.byId.includes(op));

async function createResource(
  target: FastifyInstance | Target,
  create: OperationDefinition,
  profile: string,
  transport: Transport = 'rest',
): Promise<string> {
  const answer = await send(target, { op: create, transport, profile, payload: { line_items: SEED_LINES } });
  if (answer.kind !== 'success' || typeof answer.body?.id !== 'string')
    throw new Error(`${create.name} made nothing: ${answer.text.slice(0, 400)}`);
  return answer.body.id as string;
}

/** What the owner reads: the answer's kind and body, as text to compare. */
export async function snapshot(target: FastifyInstance | Target, kind: ResourceKind, profile: string, id: string): Promise<string> {
  const answer: Answer = await send(target, { op: kind.read, transport: 'rest', profile, id });
  return JSON.stringify([answer.status, answer.kind, answer.body]);
}

/**
 * Example values of request members, by member name: enough for every operation's members to
 * make a request the store can serve. An operation with a required member missing here gets a
 * 400 in the suites that use `goodPayload`, which then say so.
 */
const EXAMPLES: Record<string, unknown> = {
  line_items: SEED_LINES,
  ids: ['bouquet_roses', 'florist_tee_m_green'],
  id: 'florist_tee',
  query: 'roses',
};

/** A request body the operation accepts and the demo store serves: an example of each member it takes that has one. */
export function goodPayload(op: OperationDefinition): Record<string, unknown> | undefined {
  const schema = op.input as { properties?: Record<string, unknown> } | undefined;
  if (!schema) return undefined;
  return Object.fromEntries(Object.keys(schema.properties ?? {}).flatMap((name) => (name in EXAMPLES ? [[name, EXAMPLES[name]]] : [])));
}
