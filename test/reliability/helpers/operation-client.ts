/**
 * Calls any operation of the table over REST, MCP or A2A, as a platform would, and reads the
 * answer back in one shape: a success, a failed business outcome, or a transport error.
 * `problemWith` says what is wrong with an answer a hostile request must never get.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { OperationDefinition } from '../../../src/capabilities/operation.js';
import { PROTOCOL_VERSION } from '../../../src/protocol/version.js';

export type Transport = 'rest' | 'mcp' | 'a2a';
/** The transports every tenant serves (A2A only where the tenant turns it on). */
export const TRANSPORTS: readonly Transport[] = ['rest', 'mcp'];

export interface Call {
  op: OperationDefinition;
  transport: Transport;
  /** The caller's profile URL. */
  profile: string;
  id?: string;
  payload?: unknown;
  /** Idempotency key (REST header, MCP meta); REST write operations get a fresh one when absent. */
  key?: string;
  /** REST: header overrides (undefined drops one). MCP: ignored. */
  headers?: Record<string, string | undefined>;
  /** REST: the body bytes as sent, instead of JSON of `payload`. */
  rawBody?: string | Buffer;
  /** MCP: replaces `arguments.meta`. */
  meta?: unknown;
  /** MCP: replaces the whole `arguments` object. */
  args?: unknown;
  /** Host header (tenant routing). */
  host?: string;
}

/** A gateway to send to, and how its callers sign their requests (unsigned when absent). */
export interface Target {
  app: FastifyInstance;
  sign?: (request: InjectOptions) => InjectOptions;
}

export interface Answer {
  transport: Transport;
  status: number;
  /** success / failed business outcome / transport error (HTTP error or JSON-RPC error). */
  kind: 'success' | 'outcome' | 'transport';
  /** REST body or MCP structuredContent (REST error body on transport errors). */
  body: any;
  /** Transport error code (REST `code`, MCP `error.data.code`). */
  code?: string;
  replayed: boolean;
  /** The raw response text, for leak checks. */
  text: string;
  retryAfter?: string;
}

/** Percent-encodes the UTF-8 bytes of a path segment (lone surrogates become U+FFFD, as on the wire). */
const encodeSegment = (segment: string) =>
  [...Buffer.from(segment, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

const restPath = (op: OperationDefinition, id?: string) => op.rest.path.replace('{id}', encodeSegment(id ?? ''));

export function restRequest(call: Call) {
  const { op } = call;
  const write = op.rest.method !== 'GET';
  const headers: Record<string, string | undefined> = {
    'proto-agent': `profile="${call.profile}"`,
    'request-id': randomUUID(),
    ...(write && { 'content-type': 'application/json', 'idempotency-key': call.key ?? randomUUID() }),
    ...(call.host && { host: call.host }),
    ...call.headers,
  };
  const body = call.rawBody ?? (write ? JSON.stringify(call.payload ?? {}) : undefined);
  return {
    method: op.rest.method,
    url: restPath(op, call.id),
    headers: Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined)),
    ...(body !== undefined && { payload: body }),
  };
}

export function mcpRequest(call: Call) {
  const { op } = call;
  // An operation that requires a key on MCP gets a fresh one, like the REST header; `meta` or `args` can still leave it out.
  const key = call.key ?? (op.idempotency?.mcp === 'required' ? randomUUID() : undefined);
  const meta = call.meta ?? { 'proto-agent': { profile: call.profile }, ...(key !== undefined && { 'idempotency-key': key }) };
  const args = call.args ?? {
    meta,
    ...(op.mcp.id && { id: call.id }),
    ...(op.mcp.payload && { [op.mcp.payload]: call.payload ?? {} }),
  };
  return {
    method: 'POST' as const,
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(call.host && { host: call.host }) },
    payload: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method: 'tools/call', params: { name: op.name, arguments: args } }),
  };
}

/** An A2A message/send whose DataPart names the operation (`action`), its resource id and its REST body members. */
function a2aRequest(call: Call) {
  const { op } = call;
  const data = { action: op.name, ...(op.mcp.id && { id: call.id }), ...(call.payload as Record<string, unknown> | undefined) };
  const message = { kind: 'message', role: 'user', messageId: call.key ?? randomUUID(), parts: [{ kind: 'data', data }] };
  return {
    method: 'POST' as const,
    url: '/a2a',
    headers: {
      'content-type': 'application/json',
      'proto-agent': `profile="${call.profile}"`,
      ...(call.host && { host: call.host }),
    },
    payload: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method: 'message/send', params: { message } }),
  };
}

const REQUESTS = { rest: restRequest, mcp: mcpRequest, a2a: a2aRequest };

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function readAnswer(transport: Transport, res: LightMyRequestResponse): Answer {
  const json = parse(res.body);
  const common = {
    transport,
    status: res.statusCode,
    text: res.body,
    replayed: res.headers['idempotent-replayed'] === 'true',
    ...(res.headers['retry-after'] !== undefined && { retryAfter: String(res.headers['retry-after']) }),
  };
  if (transport === 'rest') {
    if (res.statusCode >= 400) return { ...common, kind: 'transport', body: json, code: json?.code };
    return { ...common, kind: json?.proto?.status === 'error' ? 'outcome' : 'success', body: json };
  }
  if (json?.error) return { ...common, kind: 'transport', body: json.error, code: json.error.data?.code };
  // A2A: the resource is the one member of the answer's DataPart (`a2a.proto.<capability>`).
  const data = json?.result?.parts?.find((part: { kind?: string }) => part.kind === 'data')?.data;
  const body = transport === 'a2a' ? data && Object.values(data)[0] : json?.result?.structuredContent;
  return { ...common, kind: body?.proto?.status === 'error' ? 'outcome' : 'success', body };
}

/** Sends `call` to a bare app (unsigned), or to a target that signs it as the caller. */
export async function send(target: FastifyInstance | Target, call: Call): Promise<Answer> {
  const { app, sign } = 'app' in target ? target : { app: target, sign: undefined };
  const request: InjectOptions = REQUESTS[call.transport](call);
  const res = await app.inject(sign ? sign(request) : request);
  return readAnswer(call.transport, res);
}

const STACK = /\n\s+at |\bat [^\s]+ \(|node:internal|\.ts:\d+|\.js:\d+:\d+/;

/**
 * Why this answer is not one a client may ever get for a bad request (undefined when it is fine):
 * a 5xx, a body that is not JSON, a transport error without {code, content} (REST) or
 * {code, message, data} (MCP), an envelope without `proto`, a failed outcome without messages,
 * or a stack trace anywhere. `allow5xx` admits 503s with a code from that list.
 */
export function problemWith(answer: Answer, allow5xx: readonly string[] = []): string | undefined {
  const { status, body, text } = answer;
  if (STACK.test(text)) return `stack trace in the answer: ${text.slice(0, 300)}`;
  if (status >= 500 && !(status === 503 && answer.code !== undefined && allow5xx.includes(answer.code)))
    return `HTTP ${status}: ${text.slice(0, 300)}`;
  if (body === undefined || body === null) return `no JSON body (HTTP ${status}): ${text.slice(0, 300)}`;
  if (answer.kind === 'transport') {
    if (answer.transport === 'rest') {
      if (status < 400) return `transport error with HTTP ${status}`;
      if (typeof body.code !== 'string' || typeof body.content !== 'string' || body.content === '')
        return `REST error body is not {code, content}: ${text.slice(0, 300)}`;
      return undefined;
    }
    if (typeof body.code !== 'number' || typeof body.message !== 'string')
      return `JSON-RPC error without code and message: ${text.slice(0, 300)}`;
    const http = body.data?.http_status;
    if (http !== undefined && (typeof http !== 'number' || (http >= 500 && !allow5xx.includes(body.data?.code))))
      return `JSON-RPC error says HTTP ${http}: ${text.slice(0, 300)}`;
    return undefined;
  }
  if (status !== 200 && status !== 201) return `HTTP ${status} for a ${answer.kind}`;
  if (body.proto?.version !== PROTOCOL_VERSION) return `envelope without proto.version: ${text.slice(0, 300)}`;
  if (answer.kind === 'outcome') {
    if (status !== 200) return `failed outcome with HTTP ${status}`;
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0) return 'failed outcome without messages';
    const bad = messages.find((m: any) => typeof m?.type !== 'string' || typeof m?.code !== 'string' || typeof m?.content !== 'string');
    if (bad) return `malformed message ${JSON.stringify(bad)}`;
  }
  return undefined;
}
