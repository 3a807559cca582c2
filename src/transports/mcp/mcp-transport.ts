/**
 * MCP binding at POST /mcp: JSON-RPC 2.0 through the official SDK's server in stateless mode
 * with plain JSON responses, so a bare `tools/call` POST works (no initialize, no session)
 * and so does the SDK client over Streamable HTTP. Tools come from the operation table.
 * A lone tools/call or tools/list the SDK would accept is answered directly (see `directRequest`).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationDefinition } from '../../capabilities/operation.js';
import { operationCall } from '../../pipeline/operation-call.js';
import type { Pipeline } from '../../pipeline/pipeline.js';
import { JSONRPC } from '../../protocol/error-catalogue.js';
import { bounded, ProtocolError } from '../../protocol/errors.js';
import type { Tenant } from '../../tenancy/tenant.js';
import { toProtocolError } from '../error-mapping.js';
import { sendProtocolError } from '../rest/error-handler.js';
import { COUNTED_PER_CALL } from '../rate-limiter.js';
import { tenantOf } from '../request-context.js';
import { agentProfile, compileEnvelopeCheck, describeTool, withStandardMeta, type Tool, type ToolArguments } from './tools.js';
import { withoutBodyId } from '../body-id.js';
import type { Validator } from '../../../schemas/validator.js';
import fp from 'fastify-plugin';

/** A JSON-RPC error the SDK passes through as {code, message, data}. */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

function jsonRpcErrorOf(error: ProtocolError): JsonRpcError {
  return new JsonRpcError(error.jsonRpcCode, error.message, {
    code: error.code,
    http_status: error.status,
    ...(error.extra.retryAfterSeconds !== undefined && { retry_after: error.extra.retryAfterSeconds }),
    // The Bearer challenge a REST caller gets in WWW-Authenticate (identity linking).
    ...(error.extra.headers?.['www-authenticate'] !== undefined && { www_authenticate: error.extra.headers['www-authenticate'] }),
  });
}

/** Text of a business outcome that failed is its messages' text (spec part 2 §4.1). */
function contentText(body: string, outcome: 'success' | 'error'): string {
  if (outcome === 'success') return body;
  const messages = (JSON.parse(body) as { messages?: Array<{ content: string }> }).messages ?? [];
  return messages.map((m) => m.content).join('\n') || body;
}

/**
 * The CallToolResult as JSON text, keys in the order the SDK's result schema writes them; the
 * answer's body goes in as structuredContent unparsed (it is the JSON object REST sends).
 */
function toolResultText({ body, outcome }: { body: string; outcome: 'success' | 'error' }): string {
  return `{"content":[{"type":"text","text":${JSON.stringify(contentText(body, outcome))}}],"structuredContent":${body}}`;
}

const SERVER_VERSION = '0.1.0';

/**
 * One for every SDK server: a Server builds a whole Ajv instance when given none, which cost a
 * request more than the rest of the MCP binding (profile, issue 32). The server only validates
 * with it what it asks a client for (elicitation), which this stateless binding never does.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** The request's JSON-RPC id when the body was parsed (a rate-limited call), else null. */
function requestIdOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * Failures before the SDK sees the message (bad JSON, unknown tenant, rate limit) still answer in
 * JSON-RPC: this plugin's own error handler, in place of the REST one (its scope is encapsulated).
 */
function jsonRpcErrorHandler(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  const mapped = toProtocolError(error, req.log);
  const { code, message, data } = jsonRpcErrorOf(mapped);
  if (mapped.extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.extra.retryAfterSeconds));
  reply.code(mapped.status).send({ jsonrpc: '2.0', id: requestIdOf(req.body), error: { code, message, data } });
}

interface RpcErrorAnswer {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/**
 * A tools/call whose arguments are not an object is invalid params, answered here in one
 * sentence: the SDK would parse it and answer -32603 with the schema library's dump.
 */
function argumentsError(message: unknown): RpcErrorAnswer | undefined {
  if (message === null || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') return undefined;
  const params = (message as { params?: unknown }).params;
  if (params === null || typeof params !== 'object' || !('arguments' in params)) return undefined;
  const args = params.arguments;
  if (args === undefined || (args !== null && typeof args === 'object' && !Array.isArray(args))) return undefined;
  const error = { code: JSONRPC.invalidParams, message: 'params.arguments must be an object' };
  return { jsonrpc: '2.0', id: requestIdOf(message), error };
}

/** The JSON-RPC answers the SDK writes: `result` first, as its Protocol builds them. */
const resultAnswer = (id: RequestId, resultText: string) => `{"result":${resultText},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
const errorAnswer = (id: RequestId, { code, message, data }: JsonRpcError) =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, data } });

/**
 * A lone request the binding answers itself, when the SDK would take it as it is: well-formed by
 * the SDK's own schemas, no task augmentation (this server offers none) and a protocol version
 * header the SDK accepts. Everything else (initialize, ping, notifications, batches, malformed
 * messages) goes through the SDK, whose transport and server built per request (stateless mode
 * allows no reuse) doubled a tool call's CPU against the same operation on REST (issue 32).
 */
function directRequest(body: unknown, protocolVersion: unknown): JSONRPCRequest | undefined {
  if (protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion as string)) return undefined;
  const method = (body as { method?: unknown } | null | undefined)?.method;
  if (method !== 'tools/call' && method !== 'tools/list') return undefined;
  const parsed = JSONRPCRequestSchema.safeParse(body);
  if (!parsed.success || parsed.data.params?.task !== undefined) return undefined;
  const schema = method === 'tools/call' ? CallToolRequestSchema : ListToolsRequestSchema;
  return schema.safeParse(parsed.data).success ? parsed.data : undefined;
}

/** Messages one JSON-RPC batch may hold; each tool call in it is rate-limited on its own. */
export const MAX_BATCH = 20;

/** A Fastify plugin, registered with the operations and the pipeline. */
async function addMcpTransport(
  app: FastifyInstance,
  { operations, pipeline }: { operations: readonly OperationDefinition[]; pipeline: Pipeline },
): Promise<void> {
  /** Requests with a tool call refused by a rate limit: the longest Retry-After among them. */
  const rateLimited = new WeakMap<FastifyRequest, number>();
  const byName = new Map(operations.map((op) => [op.name, op]));
  const envelopeChecks = new Map<string, Validator<ToolArguments>>(operations.map((op) => [op.name, compileEnvelopeCheck(op)]));
  // Once per tenant: a reloaded configuration is a new Tenant, so its tools are listed afresh.
  const toolLists = new WeakMap<Tenant, { result: { tools: Tool[] }; text: string }>();
  app.setErrorHandler(jsonRpcErrorHandler);
  const toolsOf = (tenant: Tenant) => {
    let list = toolLists.get(tenant);
    if (!list) {
      const result = { tools: operations.filter((op) => tenant.capabilities.has(op.capability)).map(describeTool) };
      list = { result, text: JSON.stringify(result) };
      toolLists.set(tenant, list);
    }
    return list;
  };

  async function callTool(req: FastifyRequest, tenant: Tenant, name: string, args: unknown, standardMeta: unknown) {
    const op = byName.get(name);
    if (!op || !tenant.capabilities.has(op.capability)) {
      throw new ProtocolError('unknown_tool', `unknown tool ${bounded(String(name), 100)}`);
    }
    req.operation = op.name;
    const checked = envelopeChecks.get(op.name)!(withStandardMeta(args ?? {}, standardMeta));
    if (!checked.ok) throw new ProtocolError('invalid_request', `arguments${checked.message.slice(1)}`);
    const { meta = {}, id } = checked.value;
    const profileUrl = agentProfile(meta);
    const sent = op.mcp.payload ? checked.value[op.mcp.payload] : undefined;
    // A cart payload never carries its own id (spec §4.2); a checkout one may (deprecated, as on REST);
    // a catalog payload names products by id.
    if (op.mcp.payload === 'cart' && sent !== null && typeof sent === 'object' && 'id' in sent) {
      throw new ProtocolError('invalid_request', 'arguments.cart.id is not allowed: the id goes in arguments.id');
    }
    const payload = op.mcp.payload === 'checkout' ? withoutBodyId(sent, id, 'arguments.id') : sent;
    const response = await pipeline.execute(
      op,
      operationCall(req, tenant, {
        transport: 'mcp',
        requestId: meta['request-id'] ?? req.id,
        profileUrl,
        id,
        payload,
        idempotencyKey: meta['idempotency-key'],
      }),
    );
    return toolResultText(response);
  }

  /** A failed tool call as the JSON-RPC error it answers, its rate-limit refusal noted for the reply. */
  function toolCallFailure(req: FastifyRequest, error: unknown): JsonRpcError {
    const mapped = toProtocolError(error, req.log);
    if (mapped.status === 429) rateLimited.set(req, Math.max(rateLimited.get(req) ?? 0, mapped.extra.retryAfterSeconds ?? 1));
    return jsonRpcErrorOf(mapped);
  }

  function serverFor(req: FastifyRequest, tenant: Tenant): Server {
    const server = new Server({ name: tenant.name, version: SERVER_VERSION }, { capabilities: { tools: {} }, jsonSchemaValidator });
    server.setRequestHandler(ListToolsRequestSchema, async () => toolsOf(tenant).result);
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      try {
        const text = await callTool(req, tenant, request.params.name, request.params.arguments, request.params._meta);
        return JSON.parse(text) as { content: Array<{ type: 'text'; text: string }> };
      } catch (error) {
        throw toolCallFailure(req, error);
      }
    });
    return server;
  }

  /** The JSON-RPC answer to a request `directRequest` let through, as the SDK would write it. */
  async function answerDirectly(req: FastifyRequest, tenant: Tenant, request: JSONRPCRequest): Promise<string> {
    if (request.method === 'tools/list') return resultAnswer(request.id, toolsOf(tenant).text);
    const params = request.params as { name: string; arguments?: unknown; _meta?: unknown };
    try {
      return resultAnswer(request.id, await callTool(req, tenant, params.name, params.arguments, params._meta));
    } catch (error) {
      return errorAnswer(request.id, toolCallFailure(req, error));
    }
  }

  /** Each call of a batch answers for itself; a lone call over the limit is a 429, as on REST. */
  function markRateLimited(req: FastifyRequest, reply: FastifyReply) {
    const retryAfter = rateLimited.get(req);
    if (retryAfter === undefined) return;
    reply.header('retry-after', String(retryAfter));
    if (!Array.isArray(req.body)) reply.code(429);
  }

  app.post('/mcp', { config: COUNTED_PER_CALL }, async (req, reply) => {
    req.transport = 'mcp';
    const tenant = tenantOf(req);
    if (Array.isArray(req.body) && req.body.length > MAX_BATCH) {
      const content = `a JSON-RPC batch holds at most ${MAX_BATCH} messages; this one has ${req.body.length}`;
      throw new ProtocolError('request_too_large', content);
    }
    if (Array.isArray(req.body) && req.body.length === 0) {
      // JSON-RPC 2.0 §6: an empty array is one Invalid Request answer, not an array.
      const error = { code: JSONRPC.invalidRequest, message: 'Invalid Request: an empty batch' };
      return reply.code(400).send({ jsonrpc: '2.0', id: null, error });
    }
    const messages: unknown[] = Array.isArray(req.body) ? req.body : [req.body];
    const refused = messages.map(argumentsError);
    const passed = messages.filter((_, i) => !refused[i]);
    const answered = refused.filter((answer) => answer !== undefined);
    if (passed.length === 0) return reply.send(Array.isArray(req.body) ? answered : answered[0]);
    const request = directRequest(req.body, req.headers['mcp-protocol-version']);
    if (request) {
      const text = await answerDirectly(req, tenant, request);
      reply.code(200).header('content-type', 'application/json');
      markRateLimited(req, reply);
      return reply.send(text);
    }
    const server = serverFor(req, tenant);
    // Stateless: one transport per request. Platforms POST plain JSON, so accept JSON-only clients.
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
      markRateLimited(req, reply);
      const text = await response.text();
      if (answered.length > 0) {
        // A batch's refused calls answer beside the others (a batch of notifications only answers nothing).
        // The SDK answers a batch of one with a bare object.
        const others = text === '' ? [] : ([JSON.parse(text)] as unknown[]).flat();
        return reply
          .code(200)
          .header('content-type', 'application/json')
          .send([...others, ...answered]);
      }
      return reply.send(text === '' ? undefined : text);
    } finally {
      await server.close();
    }
  });

  const notAllowed = async (_req: FastifyRequest, reply: FastifyReply) =>
    sendProtocolError(
      reply,
      new ProtocolError('method_not_allowed', 'this MCP endpoint is stateless: POST JSON-RPC requests', { headers: { allow: 'POST' } }),
    );
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
