/**
 * A2A binding (upstream `checkout-a2a.md`) on A2A 1.0 with the official SDK (@a2a-js/sdk 1.x): the
 * tenant's agent card at /.well-known/agent-card.json and JSON-RPC at POST /a2a. A request's
 * `A2A-Version` picks the SDK's handler: 1.0 (`SendMessage`, parts without `kind`) or, as A2A 1.0
 * §3.6.2 wants for a request naming none, 0.3 (`message/send`), whose translation to 1.0 and back
 * is the SDK's compat layer. Either way each message is one operation of the table, run by the
 * pipeline as on REST (message-send.ts); answers are Messages, never Tasks.
 */
import type { AgentCard } from '@a2a-js/sdk';
import { Extensions } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { A2AError } from '@a2a-js/sdk/errors';
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OperationDefinition } from '../../capabilities/operation.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { agentCardPath } from '../../protocol/business-profile.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { StateStore } from '../../state/store.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { toProtocolError } from '../error-mapping.js';
import { COUNTED_PER_CALL } from '../rate-limiter.js';
import { headerValue, tenantOf } from '../request-context.js';
import { A2A_PATH, agentCardOf, cardView, EXTENSION_URI, type CardView } from './agent-card.js';
import { Conversations } from './conversation.js';
import { MessageSender } from './message-send.js';
import { messagesOnly } from './messages-only.js';
import { nonObjectPart, withUpstreamPartKinds } from './request-body.js';
import { rpcErrorOf, type RpcError } from './rpc-errors.js';
import { A2A_V03, A2A_V1, extensionsHeader, requestedVersion } from './wire-version.js';

export interface A2aOptions {
  operations: readonly OperationDefinition[];
  pipeline: Pipeline;
  store: StateStore;
}

/** What the transport keeps per tenant: its card (and the card as each version reads it) and the operations it offers. */
interface Tenanted {
  card: AgentCard;
  views: { legacy: CardView; current: CardView };
  offered: ReadonlyMap<string, OperationDefinition>;
}

/** One POST /a2a: the A2A version it speaks, and the protocol error its operation failed with, if it did. */
interface Exchange {
  version: string;
  failure?: ProtocolError;
}

interface RpcEnvelope {
  jsonrpc: string;
  id: string | number | null;
  result?: unknown;
  error?: unknown;
}

const requestIdOf = (req: FastifyRequest): string | number | null => {
  const id = (req.body as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

const errorEnvelope = (req: FastifyRequest, error: RpcError): RpcEnvelope => ({
  jsonrpc: '2.0',
  id: requestIdOf(req),
  error,
});

/** An error the SDK raised (bad envelope, unknown method, no such task) in the SDK's words for the version spoken. */
const sdkError = (error: unknown, version: string) =>
  version === A2A_V03 ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error) : JsonRpcTransportHandler.mapToJSONRPCError(error);

function tenantedOf(operations: readonly OperationDefinition[]): (tenant: Tenant) => Tenanted {
  const kept = new WeakMap<Tenant, Tenanted>();
  return (tenant) => {
    let found = kept.get(tenant);
    if (!found) {
      const card = agentCardOf(tenant, operations);
      const offered = new Map(operations.filter((op) => tenant.capabilities.has(op.capability)).map((op) => [op.name, op]));
      found = { card, views: { legacy: cardView(card, A2A_V03), current: cardView(card, A2A_V1) }, offered };
      kept.set(tenant, found);
    }
    return found;
  };
}

function enabled(req: FastifyRequest): Tenant {
  const tenant = tenantOf(req);
  if (tenant.config.a2a !== true) throw new ProtocolError('not_found', `${tenant.name} does not offer the A2A transport`);
  return tenant;
}

/** The extension is always active; echoing it tells a client that asked for it (A2A extensions §activation). */
function echoExtension(req: FastifyRequest, reply: FastifyReply, version: string): void {
  const header = extensionsHeader(version);
  const requested = Extensions.parseServiceParameter(headerValue(req, header) ?? headerValue(req, 'a2a-extensions'));
  if (requested.includes(EXTENSION_URI)) reply.header(header, EXTENSION_URI);
}

/**
 * The SDK's JSON-RPC handler for the version spoken, over this agent's messages-only request
 * handler; a failure of the operation is kept on the exchange, to be answered in the protocol's words.
 */
function dispatch(req: FastifyRequest, tenant: Tenant, exchange: Exchange, tenanted: Tenanted, sender: MessageSender) {
  const handler = messagesOnly(tenanted.card, async (request) => {
    try {
      return await sender.send(req, tenant, tenanted.offered, request.message);
    } catch (error) {
      if (error instanceof A2AError) throw error;
      exchange.failure = toProtocolError(error, req.log);
      throw exchange.failure;
    }
  });
  const context = new ServerCallContext({ requestedVersion: exchange.version });
  // Fastify parsed the body as JSON; the SDK checks it is a JSON-RPC request.
  const body = req.body as Record<string, unknown>;
  if (exchange.version === A2A_V03) return new LegacyJsonRpcTransportHandler(handler).handle(withUpstreamPartKinds(body), context);
  return new JsonRpcTransportHandler(handler).handle(body, context);
}

/** SendStreamingMessage (0.3 message/stream): the one answer as a server-sent event; an error before it stays a plain JSON-RPC answer. */
async function eventStream(req: FastifyRequest, exchange: Exchange, events: AsyncGenerator<RpcEnvelope>): Promise<string | RpcEnvelope> {
  const sent: string[] = [];
  try {
    for await (const event of events) sent.push(`data: ${JSON.stringify(event)}\n\n`);
  } catch (error) {
    return errorEnvelope(req, exchange.failure ? rpcErrorOf(exchange.failure, exchange.version) : sdkError(error, exchange.version));
  }
  return sent.join('');
}

/** Sends the SDK's answer, its error replaced by the protocol's when the operation failed; a refused rate limit is HTTP 429. */
async function answer(req: FastifyRequest, reply: FastifyReply, exchange: Exchange, result: RpcEnvelope | AsyncGenerator<RpcEnvelope>) {
  let sent = Symbol.asyncIterator in result ? await eventStream(req, exchange, result) : result;
  if (typeof sent !== 'string' && sent.error !== undefined && exchange.failure) {
    sent = { ...sent, error: rpcErrorOf(exchange.failure, exchange.version) };
  }
  if (exchange.failure?.status === 429) reply.code(429).header('retry-after', String(exchange.failure.extra.retryAfterSeconds ?? 1));
  if (typeof sent === 'string') return reply.type('text/event-stream').header('cache-control', 'no-cache').send(sent);
  return reply.type('application/json; charset=utf-8').send(sent);
}

function addCardRoute(app: FastifyInstance, tenanted: (tenant: Tenant) => Tenanted): void {
  app.get(agentCardPath, async (req, reply) => {
    req.operation = 'agent_card';
    req.transport = 'a2a';
    const { views } = tenanted(enabled(req));
    const view = requestedVersion(req).startsWith('0.') ? views.legacy : views.current;
    reply.header('cache-control', 'public, max-age=300').header('vary', 'host, a2a-version').header('etag', view.etag);
    if (req.headers['if-none-match'] === view.etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(view.body);
  });
}

function addRpcRoute(app: FastifyInstance, tenanted: (tenant: Tenant) => Tenanted, sender: MessageSender): void {
  app.post(A2A_PATH, { config: COUNTED_PER_CALL }, async (req, reply) => {
    req.transport = 'a2a';
    const tenant = enabled(req);
    const exchange: Exchange = { version: requestedVersion(req) };
    const found = tenanted(tenant);
    echoExtension(req, reply, exchange.version);
    try {
      validateVersion(exchange.version, found.card, 'JSONRPC');
    } catch (error) {
      return reply.send(errorEnvelope(req, JsonRpcTransportHandler.mapToJSONRPCError(error)));
    }
    // The 1.0 SDK reads a part that is not an object as a crash: refused here in the protocol's words.
    if (exchange.version !== A2A_V03 && nonObjectPart(req.body)) {
      const refused = new ProtocolError('invalid_request', 'params.message.parts must be Part objects');
      return reply.send(errorEnvelope(req, rpcErrorOf(refused, exchange.version)));
    }
    return answer(req, reply, exchange, await dispatch(req, tenant, exchange, found, sender));
  });
}

/** Failures before the SDK sees the message (bad JSON, an oversized body, A2A off for the tenant) still answer in JSON-RPC. */
function rpcErrorHandler(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  const mapped = toProtocolError(error, req.log);
  if (mapped.extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.extra.retryAfterSeconds));
  reply.code(mapped.status).send(errorEnvelope(req, rpcErrorOf(mapped, requestedVersion(req))));
}

async function addA2aTransport(app: FastifyInstance, { operations, pipeline, store }: A2aOptions): Promise<void> {
  const tenanted = tenantedOf(operations);
  app.setErrorHandler(rpcErrorHandler);
  addCardRoute(app, tenanted);
  addRpcRoute(app, tenanted, new MessageSender(pipeline, new Conversations(store)));
}

/** Its own error handler answers in JSON-RPC, so it needs no rest-errors. */
export const a2aTransport = fp(addA2aTransport, {
  name: 'a2a-transport',
  encapsulate: true,
  dependencies: ['request-hooks', 'json-body', 'rate-limits'],
  decorators: { request: ['tenant', 'operation', 'transport', 'rawBody'] },
});
