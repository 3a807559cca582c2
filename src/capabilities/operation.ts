/**
 * One declaration per protocol operation: its capability, REST binding, MCP binding, input
 * schema and handler. The REST routes, the MCP tool list and the MCP argument shapes are all
 * generated from these declarations, so the transports cannot drift apart.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { Message } from '../../schemas/common.js';
import type { SessionKind } from '../embedded/settings.js';
import type { CapabilityName } from '../protocol/capability-registry.js';
import type { Tenant } from '../tenancy/tenant.js';
import type { OperationContext } from './context.js';

export interface OperationInput<P> {
  /** Resource id: REST path parameter, MCP `arguments.id`. */
  id?: string;
  /** The request body: REST body, MCP `arguments[payloadKey]`. */
  payload: P;
}

/** How long an operation's answer may be served again (answer-cache.ts), and for which version of the data. */
export interface AnswerScope {
  ttlMs: number;
  /** Changes whenever the underlying data does; part of every key. */
  version: number;
}

export type OperationResult =
  | { outcome: 'success'; status?: 200 | 201; body: Record<string, unknown> }
  /** A business outcome that failed (spec §7 layer 2): HTTP 200 with proto.status "error". */
  | { outcome: 'error'; body: Record<string, unknown> & { messages: Message[] } };

export interface OperationDefinition<S extends TSchema = TSchema> {
  /** MCP tool name; also the operation's name in logs and metrics. */
  name: string;
  title: string;
  description: string;
  capability: CapabilityName;
  rest: { method: 'GET' | 'POST' | 'PUT'; path: string; status: 200 | 201 };
  /** MCP arguments are {meta, id?, [payload]?}. */
  mcp: { id: boolean; payload?: 'catalog' | 'cart' | 'checkout' };
  /** Schema of the payload (REST body, MCP payload member). Absent: the operation takes none. */
  input?: S;
  /**
   * State-changing operations take an idempotency key: required on REST, and on MCP
   * `optional` (honoured when sent) or `required`.
   */
  idempotency?: { mcp: 'optional' | 'required' };
  /**
   * Read operations whose answer depends only on the request, the caller's active capabilities
   * and data the tenant already caches: for how long (and until which data version) an answer may
   * be served again. See answer-cache.ts.
   */
  answers?(tenant: Tenant, now: () => number): AnswerScope | undefined;
  /**
   * Answers with a cart or checkout session that an embedded page can show: while it is live, the
   * answer carries the session's embedded binding when the tenant has the transport on (embedded/session/session-binding.ts).
   */
  embedded?: SessionKind;
  handler(ctx: OperationContext, input: OperationInput<Static<S>>): Promise<OperationResult>;
}

/** Keeps the handler's payload type tied to the input schema. */
export function defineOperation<S extends TSchema>(definition: OperationDefinition<S>): OperationDefinition<S> {
  return definition;
}

export const success = (body: Record<string, unknown>, status?: 200 | 201): OperationResult =>
  status === undefined ? { outcome: 'success', body } : { outcome: 'success', status, body };

export const failure = (messages: Message[], extra: Record<string, unknown> = {}): OperationResult => ({
  outcome: 'error',
  body: { ...extra, messages },
});
