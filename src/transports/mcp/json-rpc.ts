/**
 * The JSON-RPC 2.0 side of the MCP binding: errors as the SDK writes them (a protocol error with
 * its catalogue code and `data`), the answers the binding writes itself, and which lone requests
 * it may answer without the SDK.
 */
import {
  CallToolRequestSchema,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSONRPC } from '../../protocol/error-catalogue.js';
import type { ProtocolError } from '../../protocol/errors.js';
import { jsonRpcErrorData, toProtocolError } from '../error-mapping.js';

/** A JSON-RPC error the SDK passes through as {code, message, data}. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function jsonRpcErrorOf(error: ProtocolError): JsonRpcError {
  return new JsonRpcError(error.jsonRpcCode, error.message, jsonRpcErrorData(error));
}

/** The request's JSON-RPC id when the body was parsed (a rate-limited call), else null. */
export function requestIdOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * Failures before the SDK sees the message (bad JSON, unknown tenant, rate limit) still answer in
 * JSON-RPC: the MCP plugin's own error handler, in place of the REST one (its scope is encapsulated).
 */
export function jsonRpcErrorHandler(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  const mapped = toProtocolError(error, req.log);
  const { code, message, data } = jsonRpcErrorOf(mapped);
  if (mapped.extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.extra.retryAfterSeconds));
  reply.code(mapped.status).send({ jsonrpc: '2.0', id: requestIdOf(req.body), error: { code, message, data } });
}

export interface RpcErrorAnswer {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

/** A message's method, as the rate limits price it ('' when it names none). */
export const methodOf = (message: unknown): string => {
  const method = (message as { method?: unknown } | null | undefined)?.method;
  return typeof method === 'string' ? method : '';
};

/** JSON-RPC 2.0 §4.1: a message without an id is a notification, which is never answered. */
export const isNotification = (message: unknown): boolean => message !== null && typeof message === 'object' && !('id' in message);

/**
 * A tools/call whose arguments are not an object is invalid params, answered here in one
 * sentence: the SDK would parse it and answer -32603 with the schema library's dump.
 */
export function argumentsError(message: unknown): RpcErrorAnswer | undefined {
  if (message === null || typeof message !== 'object' || (message as { method?: unknown }).method !== 'tools/call') return undefined;
  const params = (message as { params?: unknown }).params;
  if (params === null || typeof params !== 'object' || !('arguments' in params)) return undefined;
  const args = params.arguments;
  if (args === undefined || (args !== null && typeof args === 'object' && !Array.isArray(args))) return undefined;
  const error = { code: JSONRPC.invalidParams, message: 'params.arguments must be an object' };
  return { jsonrpc: '2.0', id: requestIdOf(message), error };
}

/** The JSON-RPC answers the SDK writes: `result` first, as its Protocol builds them. */
export const resultAnswer = (id: RequestId, resultText: string) => `{"result":${resultText},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
export const errorAnswer = (id: RequestId, { code, message, data }: JsonRpcError) =>
  JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, data } });

/**
 * A lone request the binding answers itself, when the SDK would take it as it is: well-formed by
 * the SDK's own schemas, no task augmentation (this server offers none) and a protocol version
 * header the SDK accepts. Everything else (initialize, ping, notifications, batches, malformed
 * messages) goes through the SDK, whose transport and server built per request (stateless mode
 * allows no reuse) doubled a tool call's CPU against the same operation on REST (issue 32).
 */
export function directRequest(body: unknown, protocolVersion: unknown): JSONRPCRequest | undefined {
  if (protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion as string)) return undefined;
  const method = (body as { method?: unknown } | null | undefined)?.method;
  if (method !== 'tools/call' && method !== 'tools/list') return undefined;
  const parsed = JSONRPCRequestSchema.safeParse(body);
  if (!parsed.success || parsed.data.params?.task !== undefined) return undefined;
  const schema = method === 'tools/call' ? CallToolRequestSchema : ListToolsRequestSchema;
  return schema.safeParse(parsed.data).success ? parsed.data : undefined;
}
