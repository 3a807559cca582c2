/**
 * MCP binding at POST /mcp: JSON-RPC 2.0 through the official SDK's server in stateless mode
 * with plain JSON responses, so a bare `tools/call` POST works (no initialize, no session)
 * and so does the SDK client over Streamable HTTP. Tools come from the operation table
 * (tool-calls.ts). A lone tools/call or tools/list the SDK would accept is answered directly
 * (json-rpc.ts `directRequest`). Every message is metered before it is answered: a tool call's
 * operation by the pipeline, every other message here at its method's cost
 * (rate-limiter.ts `meterMessage`); and a batch may cost at most what MAX_BATCH tool calls cost.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationDefinition } from '../../capabilities/operation.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { JSONRPC } from '../../protocol/error-catalogue.js';
import { ProtocolError } from '../../protocol/errors.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { toProtocolError } from '../error-mapping.js';
import { sendProtocolError } from '../rest/error-handler.js';
import { COUNTED_PER_CALL, MESSAGE_COSTS, messageCost, meterMessage } from '../rate-limiter.js';
import { tenantOf } from '../request-context.js';
import {
  argumentsError,
  directRequest,
  errorAnswer,
  isNotification,
  jsonRpcErrorHandler,
  jsonRpcErrorOf,
  methodOf,
  requestIdOf,
  resultAnswer,
  type JsonRpcError,
  type RpcErrorAnswer,
} from './json-rpc.js';
import { toolCalls, type ToolCallParams, type ToolCalls } from './tool-calls.js';
import fp from 'fastify-plugin';

const SERVER_VERSION = '0.1.0';

/**
 * One for every SDK server: a Server builds a whole Ajv instance when given none, which cost a
 * request more than the rest of the MCP binding (profile, issue 32). The server only validates
 * with it what it asks a client for (elicitation), which this stateless binding never does.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/**
 * Messages one JSON-RPC batch may hold, and what it may cost in all (rate-limiter.ts
 * `messageCost`): each message in it is rate-limited on its own, and what one request makes the
 * gateway send stays bounded (20 tool lists would be 600 KB for a tenant with every capability).
 */
export const MAX_BATCH = 20;

/** The messages of a POST the SDK is to see, and the answers to those the binding refused itself. */
interface Sorted {
  passed: unknown[];
  answered: RpcErrorAnswer[];
}

/** The endpoint's answers: directly, through the SDK, or refused before either. */
class McpEndpoint {
  /** Requests with a tool call refused by a rate limit: the longest Retry-After among them. */
  private readonly rateLimited = new WeakMap<FastifyRequest, number>();

  constructor(private readonly tools: ToolCalls) {}

  async answer(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    req.transport = 'mcp';
    const tenant = tenantOf(req);
    const refusedBatch = this.refuseBatch(req, reply);
    if (refusedBatch) return refusedBatch;
    const sorted = await this.metered(req, sortMessages(req.body));
    if (sorted.passed.length === 0) {
      this.markRateLimited(req, reply);
      // Only notifications, each refused: there is nothing to answer them with.
      if (sorted.answered.length === 0) return reply.code(reply.statusCode === 429 ? 429 : 202).send();
      return reply.send(Array.isArray(req.body) ? sorted.answered : sorted.answered[0]);
    }
    const request = directRequest(req.body, req.headers['mcp-protocol-version']);
    if (!request) return this.answerWithSdk(req, reply, tenant, sorted);
    const text = await this.answerDirectly(req, tenant, request);
    reply.code(200).header('content-type', 'application/json');
    this.markRateLimited(req, reply);
    return reply.send(text);
  }

  /** A batch over MAX_BATCH, in messages or in cost, is refused before any runs; an empty one is one Invalid Request answer. */
  private refuseBatch(req: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    if (!Array.isArray(req.body)) return undefined;
    if (req.body.length > MAX_BATCH) {
      throw new ProtocolError('request_too_large', `a JSON-RPC batch holds at most ${MAX_BATCH} messages; this one has ${req.body.length}`);
    }
    const cost = req.body.reduce((sum: number, message: unknown) => sum + messageCost(methodOf(message)), 0);
    if (cost > MAX_BATCH) {
      throw new ProtocolError(
        'request_too_large',
        `a JSON-RPC batch costs at most what ${MAX_BATCH} tool calls cost; this one costs ${cost} ` +
          `(tools/list costs ${MESSAGE_COSTS['tools/list']})`,
      );
    }
    if (req.body.length > 0) return undefined;
    // JSON-RPC 2.0 §6: an empty array is one Invalid Request answer, not an array.
    const error = { code: JSONRPC.invalidRequest, message: 'Invalid Request: an empty batch' };
    return reply.code(400).send({ jsonrpc: '2.0', id: null, error });
  }

  /** The JSON-RPC answer to a request `directRequest` let through, as the SDK would write it. */
  private async answerDirectly(req: FastifyRequest, tenant: Tenant, request: JSONRPCRequest): Promise<string> {
    if (request.method === 'tools/list') return resultAnswer(request.id, this.tools.list(tenant).text);
    // directRequest checked it against the SDK's CallToolRequestSchema.
    const params = request.params as unknown as ToolCallParams;
    try {
      return resultAnswer(request.id, await this.tools.call(req, tenant, params));
    } catch (error) {
      return errorAnswer(request.id, this.messageFailure(req, error));
    }
  }

  /** Stateless: one SDK transport and server per request. Platforms POST plain JSON, so JSON-only clients are accepted. */
  private async answerWithSdk(req: FastifyRequest, reply: FastifyReply, tenant: Tenant, { passed, answered }: Sorted) {
    const server = this.serverFor(req, tenant);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      headers.set('accept', 'application/json, text/event-stream');
      headers.set('content-type', 'application/json');
      const parsedBody = Array.isArray(req.body) ? passed : req.body;
      const response = await transport.handleRequest(new Request(`http://gateway${req.url}`, { method: 'POST', headers }), {
        parsedBody,
      });
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'content-length') reply.header(name, value);
      });
      this.markRateLimited(req, reply);
      const text = await response.text();
      if (answered.length === 0) return reply.send(text === '' ? undefined : text);
      // A batch's refused calls answer beside the others (a batch of notifications only answers nothing).
      // The SDK answers a batch of one with a bare object.
      const others = text === '' ? [] : ([JSON.parse(text)] as unknown[]).flat();
      return reply
        .code(200)
        .header('content-type', 'application/json')
        .send([...others, ...answered]);
    } finally {
      await server.close();
    }
  }

  private serverFor(req: FastifyRequest, tenant: Tenant): Server {
    const server = new Server({ name: tenant.name, version: SERVER_VERSION }, { capabilities: { tools: {} }, jsonSchemaValidator });
    server.setRequestHandler(ListToolsRequestSchema, async () => this.tools.list(tenant).result);
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      try {
        return JSON.parse(await this.tools.call(req, tenant, request.params)) as { content: Array<{ type: 'text'; text: string }> };
      } catch (error) {
        throw this.messageFailure(req, error);
      }
    });
    return server;
  }

  /**
   * Meters each message the pipeline does not count (all but tool calls, which run operations or
   * are metered in tool-calls.ts): one past a budget is answered with the rate-limit error here,
   * a refused notification not at all, and neither reaches the SDK.
   */
  private async metered(req: FastifyRequest, { passed, answered }: Sorted): Promise<Sorted> {
    const kept: unknown[] = [];
    for (const message of passed) {
      const method = methodOf(message);
      try {
        if (method !== 'tools/call') await meterMessage(req, method);
        kept.push(message);
      } catch (error) {
        const { code, message: text, data } = this.messageFailure(req, error);
        if (!isNotification(message))
          answered.push({ jsonrpc: '2.0', id: requestIdOf(message), error: { code, message: text, ...(data && { data }) } });
      }
    }
    return { passed: kept, answered };
  }

  /** A failed message as the JSON-RPC error it answers, its rate-limit refusal noted for the reply. */
  private messageFailure(req: FastifyRequest, error: unknown): JsonRpcError {
    const mapped = toProtocolError(error, req.log);
    if (mapped.status === 429) this.rateLimited.set(req, Math.max(this.rateLimited.get(req) ?? 0, mapped.extra.retryAfterSeconds ?? 1));
    return jsonRpcErrorOf(mapped);
  }

  /** Each call of a batch answers for itself; a lone call over the limit is a 429, as on REST. */
  private markRateLimited(req: FastifyRequest, reply: FastifyReply) {
    const retryAfter = this.rateLimited.get(req);
    if (retryAfter === undefined) return;
    reply.header('retry-after', String(retryAfter));
    if (!Array.isArray(req.body)) reply.code(429);
  }
}

/** The messages of a POST (one, or a batch's), tool calls with arguments that are not an object answered here. */
function sortMessages(body: unknown): Sorted {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const refused = messages.map(argumentsError);
  return { passed: messages.filter((_, i) => !refused[i]), answered: refused.filter((answer) => answer !== undefined) };
}

const notAllowed = async (_req: FastifyRequest, reply: FastifyReply) =>
  sendProtocolError(
    reply,
    new ProtocolError('method_not_allowed', 'this MCP endpoint is stateless: POST JSON-RPC requests', { headers: { allow: 'POST' } }),
  );

/** A Fastify plugin, registered with the operations and the pipeline. */
async function addMcpTransport(
  app: FastifyInstance,
  { operations, pipeline }: { operations: readonly OperationDefinition[]; pipeline: Pipeline },
): Promise<void> {
  const endpoint = new McpEndpoint(toolCalls(operations, pipeline));
  app.setErrorHandler(jsonRpcErrorHandler);
  app.post('/mcp', { config: COUNTED_PER_CALL }, (req, reply) => endpoint.answer(req, reply));
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}

/** Its own error handler answers in JSON-RPC, so it needs no rest-errors. */
export const mcpTransport = fp(addMcpTransport, {
  name: 'mcp-transport',
  encapsulate: true,
  dependencies: ['request-hooks', 'json-body', 'rate-limits'],
  decorators: { request: ['tenant', 'operation', 'transport', 'rawBody'] },
});
