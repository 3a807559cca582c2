/**
 * A2A binding (upstream `checkout-a2a.md`): the tenant's agent card at
 * /.well-known/agent-card.json and JSON-RPC (`message/send`, `message/stream`) at POST /a2a,
 * parsed and dispatched by the official SDK's JsonRpcTransportHandler. Each message is one
 * operation of the table, run by the same pipeline as REST: the caller's profile from the
 * PROTO-Agent header, signatures, rate limits, and idempotency keyed by the message's `messageId`.
 * Answers are A2A Messages whose DataPart carries the resource under `a2a.proto.<capability>`;
 * no Task is ever created (every operation answers at once).
 */
import { randomUUID } from 'node:crypto';
import type { AgentCard, JSONRPCResponse, Message, MessageSendParams, Part, Task } from '@a2a-js/sdk';
import { A2AError, JsonRpcTransportHandler, type A2ARequestHandler } from '@a2a-js/sdk/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { operationCall } from '../../pipeline/operation-call.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { parseAgentHeader } from '../../protocol/agent-header.js';
import { agentCardPath } from '../../protocol/business-profile.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { StateStore } from '../../state/store.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { toProtocolError } from '../error-mapping.js';
import { COUNTED_PER_CALL, meterMessage } from '../rate-limiter.js';
import { tenantOf } from '../request-context.js';
import { A2A_PATH, agentCardOf, EXTENSION_URI } from './agent-card.js';
import { Conversations } from './conversation.js';
import { helpText, readMessage, resourceKey } from './message-call.js';
import fp from 'fastify-plugin';

export interface A2aOptions {
  operations: readonly OperationDefinition[];
  pipeline: Pipeline;
  store: StateStore;
}

const MESSAGE_ID = /^[\x21-\x7e]{1,255}$/;

/** A protocol error as the A2A JSON-RPC error clients see; `data` as on MCP. */
function a2aErrorOf(error: ProtocolError): A2AError {
  return new A2AError(error.jsonRpcCode, error.message, {
    code: error.code,
    http_status: error.status,
    ...(error.extra.retryAfterSeconds !== undefined && { retry_after: error.extra.retryAfterSeconds }),
  });
}

/** What every message answers: the agent's turn in the caller's context. */
const agentMessage = (contextId: string, parts: Part[]): Message => ({
  kind: 'message',
  role: 'agent',
  messageId: randomUUID(),
  contextId,
  parts,
});

/** The resource as the binding names it; a completed checkout also carries `order_id` and `order_permalink_url`. */
function resourceOf(body: Record<string, unknown>): Record<string, unknown> {
  const order = body.order as { id?: string; permalink_url?: string } | undefined;
  return order?.id ? { ...body, order_id: order.id, order_permalink_url: order.permalink_url } : body;
}

/** message/stream: the one answer as a server-sent event; an error before it stays a plain JSON-RPC answer. */
async function eventStream(req: FastifyRequest, events: AsyncGenerator<JSONRPCResponse>): Promise<string | JSONRPCResponse> {
  const sent: string[] = [];
  try {
    for await (const event of events) sent.push(`data: ${JSON.stringify(event)}\n\n`);
  } catch (error) {
    const rpc = error instanceof A2AError ? error : a2aErrorOf(toProtocolError(error, req.log));
    const id = (req.body as { id?: string | number }).id ?? null;
    return { jsonrpc: '2.0', id, error: rpc.toJSONRPCError() };
  }
  return sent.join('');
}

interface Tenanted {
  card: AgentCard;
  offered: ReadonlyMap<string, OperationDefinition>;
}

async function addA2aTransport(app: FastifyInstance, { operations, pipeline, store }: A2aOptions): Promise<void> {
  const conversations = new Conversations(store);
  const tenanted = new WeakMap<Tenant, Tenanted>();
  /** Requests a rate limit refused: the Retry-After to send (HTTP 429, as on REST). */
  const rateLimited = new WeakMap<FastifyRequest, number>();

  const of = (tenant: Tenant): Tenanted => {
    let found = tenanted.get(tenant);
    if (!found) {
      const offered = new Map(operations.filter((op) => tenant.capabilities.has(op.capability)).map((op) => [op.name, op]));
      found = { card: agentCardOf(tenant, operations), offered };
      tenanted.set(tenant, found);
    }
    return found;
  };

  const enabled = (req: FastifyRequest): Tenant => {
    const tenant = tenantOf(req);
    if (tenant.config.a2a !== true) throw new ProtocolError(404, 'not_found', `${tenant.name} does not offer the A2A transport`);
    return tenant;
  };

  async function send(req: FastifyRequest, tenant: Tenant, params: MessageSendParams): Promise<Message> {
    const { message } = params;
    // The SDK checks the JSON-RPC envelope only; the messageId is also the idempotency key.
    if (typeof message !== 'object' || message === null || typeof message.messageId !== 'string' || !MESSAGE_ID.test(message.messageId)) {
      throw new ProtocolError(400, 'invalid_request', 'params.message must be a message whose messageId is 1-255 visible ASCII characters');
    }
    const contextId = typeof message.contextId === 'string' && message.contextId !== '' ? message.contextId : randomUUID();
    const { offered } = of(tenant);
    const read = readMessage(message, offered);
    if (read.kind === 'help') {
      await meterMessage(req, 'message/send'); // no operation: the pipeline counts nothing
      return agentMessage(contextId, [{ kind: 'text', text: helpText(offered) }]);
    }
    const { op, payload } = read;
    req.operation = op.name;
    const profileUrl = parseAgentHeader(req.headers['proto-agent']).profile;
    const id = op.mcp.id ? (read.id ?? (await conversations.lastId(tenant, profileUrl, contextId, op.capability))) : undefined;
    if (op.mcp.id && id === undefined) {
      throw new ProtocolError(400, 'invalid_request', `${op.name} needs "id" (no ${resourceKey(op.capability)} in this context yet)`);
    }
    const header = req.headers['request-id'];
    const response = await pipeline.execute(
      op,
      operationCall(req, tenant, {
        transport: 'a2a',
        requestId: typeof header === 'string' ? header : req.id,
        profileUrl,
        id,
        payload,
        // The binding's duplicate detection: a retried message reuses its messageId.
        idempotencyKey: message.messageId,
      }),
    );
    const body = JSON.parse(response.body) as Record<string, unknown>;
    if (response.outcome === 'success') await conversations.remember(tenant, profileUrl, contextId, op.capability, body);
    const parts: Part[] = [{ kind: 'data', data: { [resourceKey(op.capability)]: resourceOf(body) } }];
    const messages = (body.messages as Array<{ content?: string }> | undefined) ?? [];
    if (response.outcome === 'error') parts.push({ kind: 'text', text: messages.map((m) => m.content).join('\n') });
    return agentMessage(contextId, parts);
  }

  /** The SDK's request handler for one HTTP request: messages only, never tasks. */
  function handlerFor(req: FastifyRequest, tenant: Tenant): A2ARequestHandler {
    const sendMessage = async (params: MessageSendParams): Promise<Message> => {
      try {
        return await send(req, tenant, params);
      } catch (error) {
        const mapped = toProtocolError(error, req.log);
        if (mapped.status === 429) rateLimited.set(req, mapped.extra.retryAfterSeconds ?? 1);
        throw a2aErrorOf(mapped);
      }
    };
    const noTask = async (params: { id: string }): Promise<Task> => {
      throw A2AError.taskNotFound(params.id);
    };
    const noPush = async (): Promise<never> => {
      throw A2AError.pushNotificationNotSupported();
    };
    return {
      getAgentCard: async () => of(tenant).card,
      getAuthenticatedExtendedAgentCard: async () => {
        throw A2AError.unsupportedOperation('this agent has no extended card');
      },
      sendMessage,
      async *sendMessageStream(params) {
        yield await sendMessage(params);
      },
      getTask: noTask,
      cancelTask: noTask,
      setTaskPushNotificationConfig: noPush,
      getTaskPushNotificationConfig: noPush,
      listTaskPushNotificationConfigs: noPush,
      deleteTaskPushNotificationConfig: noPush,
      async *resubscribe(params) {
        yield await noTask(params);
      },
    };
  }

  /** Failures before the SDK sees the message (bad JSON, rate limit, unknown tenant) still answer in JSON-RPC. */
  app.setErrorHandler((error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const mapped = toProtocolError(error, req.log);
    const rpc = a2aErrorOf(mapped).toJSONRPCError();
    if (mapped.code === 'invalid_json') rpc.code = -32700;
    if (mapped.extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.extra.retryAfterSeconds));
    const id = (req.body as { id?: unknown } | undefined)?.id;
    reply.code(mapped.status).send({ jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: rpc });
  });

  app.get(agentCardPath, async (req, reply) => {
    req.operation = 'agent_card';
    req.transport = 'a2a';
    return reply
      .header('cache-control', 'public, max-age=300')
      .header('vary', 'host')
      .send(of(enabled(req)).card);
  });

  app.post(A2A_PATH, { config: COUNTED_PER_CALL }, async (req, reply) => {
    req.transport = 'a2a';
    const tenant = enabled(req);
    // The extension is always active; echoing it tells a client that asked for it (A2A extensions §activation).
    const requested = String(req.headers['x-a2a-extensions'] ?? '');
    if (requested.includes(EXTENSION_URI)) reply.header('x-a2a-extensions', EXTENSION_URI);
    const result = await new JsonRpcTransportHandler(handlerFor(req, tenant)).handle(req.body);
    const answer = Symbol.asyncIterator in result ? await eventStream(req, result) : result;
    const retryAfter = rateLimited.get(req);
    if (retryAfter !== undefined) reply.code(429).header('retry-after', String(retryAfter));
    if (typeof answer === 'string') return reply.type('text/event-stream').header('cache-control', 'no-cache').send(answer);
    return reply.type('application/json; charset=utf-8').send(answer);
  });
}

/** Its own error handler answers in JSON-RPC, so it needs no rest-errors. */
export const a2aTransport = fp(addA2aTransport, {
  name: 'a2a-transport',
  encapsulate: true,
  dependencies: ['request-hooks', 'json-body', 'rate-limits'],
  decorators: { request: ['tenant', 'operation', 'transport', 'rawBody'] },
});
