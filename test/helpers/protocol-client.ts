/**
 * Calls an operation over REST or over MCP with one interface, so every outcome can be checked
 * over both. 200/201 bodies (MCP structuredContent) go through `validate`; on MCP the text item
 * must repeat a success as JSON and a failed outcome as its messages' text.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestGateway } from './gateway.js';

export type Transport = 'rest' | 'mcp';

export interface Reply {
  /** HTTP status: REST status, or that of the JSON-RPC response. */
  status: number;
  /** REST body or MCP structuredContent (a transport error's body on REST). */
  body: any;
  /** The JSON-RPC error, on MCP. */
  error?: { code: number; message: string; data?: { code: string; http_status: number } };
  replayed: boolean;
}

export interface CallOptions {
  /** Idempotency key; REST sends a fresh one when absent, MCP none. */
  key?: string;
  /** HTTP headers to override (undefined drops one); on MCP, added to the POST /mcp request (credentials). */
  headers?: Record<string, string | undefined>;
}

export interface ProtocolCaller {
  rest: (method: 'GET' | 'POST' | 'PUT', url: string, body: unknown, options?: CallOptions) => Promise<Reply>;
  mcp: (name: string, args: Record<string, unknown>, options?: CallOptions) => Promise<Reply>;
}

export function protocolCaller(gw: TestGateway, validate: (body: any) => void, profilePath?: string): ProtocolCaller {
  const agent = profilePath === undefined ? undefined : { rest: gw.platform.agent(profilePath), mcp: gw.platform.url(profilePath) };
  return {
    async rest(method, url, body, options = {}) {
      const headers = gw.headers({
        ...(agent && { 'proto-agent': agent.rest }),
        ...(options.key !== undefined && { 'idempotency-key': options.key }),
        ...options.headers,
      });
      const res = await gw.app.inject({ method, url, headers, ...(body !== undefined && { payload: JSON.stringify(body) }) });
      const reply = { status: res.statusCode, body: res.json(), replayed: res.headers['idempotent-replayed'] === 'true' };
      if (res.statusCode === 200 || res.statusCode === 201) validate(reply.body);
      return reply;
    },
    async mcp(name, args, options = {}) {
      const meta = gw.meta({
        ...(agent && { 'proto-agent': { profile: agent.mcp } }),
        ...(options.key !== undefined && { 'idempotency-key': options.key }),
      });
      const res = await gw.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: Object.fromEntries(
          Object.entries({ 'content-type': 'application/json', accept: 'application/json', ...options.headers }).filter(
            (e): e is [string, string] => e[1] !== undefined,
          ),
        ),
        payload: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method: 'tools/call', params: { name, arguments: { meta, ...args } } }),
      });
      const { result, error } = res.json();
      if (error) return { status: res.statusCode, body: undefined, error, replayed: false };
      validate(result.structuredContent);
      const text = result.content[0].text as string;
      if (result.structuredContent.proto.status === 'success') expect(JSON.parse(text)).toEqual(result.structuredContent);
      else expect(text).toBe(result.structuredContent.messages.map((m: { content: string }) => m.content).join('\n'));
      return { status: res.statusCode, body: result.structuredContent, replayed: false };
    },
  };
}
