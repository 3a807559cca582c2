/**
 * The resources callers own (carts, checkout sessions, ...), found in the operation table
 * rather than listed by hand: a capability whose table has a create operation (REST 201 taking
 * `line_items`) and a read operation (GET by id) holds resources. Suites create them as one
 * caller and watch them through the read operation, as the owner would see them.
 */
import type { FastifyInstance } from 'fastify';
import type { OperationDefinition } from '../../../src/operations/operation.js';
import { send, type Answer, type Transport } from './operation-client.js';

export interface ResourceKind {
  capability: string;
  create: OperationDefinition;
  read: OperationDefinition;
  /** The full replacement of the resource (REST PUT), when it has one. */
  update?: OperationDefinition;
  /** Operations that take this resource's id. */
  byId: OperationDefinition[];
}

/** A line the demo store always sells. */
export const SEED_LINES = [{ item: { id: 'bouquet_roses' }, quantity: 1 }];

const takesLineItems = (op: OperationDefinition) => Boolean((op.input as { properties?: Record<string, unknown> } | undefined)?.properties?.line_items);

export function resourceKinds(operations: readonly OperationDefinition[]): ResourceKind[] {
  const kinds: ResourceKind[] = [];
  for (const create of operations.filter((op) => op.rest.status === 201 && takesLineItems(op))) {
    const same = operations.filter((op) => op.capability === create.capability && op.mcp.id);
    const read = same.find((op) => op.rest.method === 'GET');
    const update = same.find((op) => op.rest.method === 'PUT');
    if (read) kinds.push({ capability: create.capability, create, read, ...(update && { update }), byId: same });
  }
  return kinds;
}

export const kindOf = (kinds: readonly ResourceKind[], op: OperationDefinition) => kinds.find((k) => k.byId.includes(op));

export async function createResource(app: FastifyInstance, kind: ResourceKind, profile: string, transport: Transport = 'rest'): Promise<string> {
  const answer = await send(app, { op: kind.create, transport, profile, payload: { line_items: SEED_LINES } });
  if (answer.kind !== 'success' || typeof answer.body?.id !== 'string') throw new Error(`could not create a ${kind.capability} resource: ${answer.text}`);
  return answer.body.id as string;
}

/** What the owner reads: the answer's kind and body, as text to compare. */
export async function snapshot(app: FastifyInstance, kind: ResourceKind, profile: string, id: string): Promise<string> {
  const answer: Answer = await send(app, { op: kind.read, transport: 'rest', profile, id });
  return JSON.stringify([answer.status, answer.kind, answer.body]);
}

/**
 * Example values of request members, by member name: enough for every operation's required
 * members to make a request the store can serve. An operation with a required member missing
 * here gets a 400 in the suites that use `goodPayload`, which then say so.
 */
const EXAMPLES: Record<string, unknown> = {
  line_items: SEED_LINES,
  ids: ['bouquet_roses', 'florist_tee_m_green'],
  id: 'florist_tee',
  query: 'roses',
};

/** A request body the operation accepts and the demo store serves (its required members, and a query when it takes one). */
export function goodPayload(op: OperationDefinition): Record<string, unknown> | undefined {
  const schema = op.input as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  if (!schema) return undefined;
  const wanted = new Set([...(schema.required ?? []), ...('query' in (schema.properties ?? {}) ? ['query'] : [])]);
  return Object.fromEntries([...wanted].map((name) => [name, EXAMPLES[name]]));
}
