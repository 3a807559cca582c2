/**
 * get_order over REST or MCP with one interface, for a given platform and credentials. Every
 * body is checked against the order (or failure) schema, and on MCP the text content against
 * the spec's rule: a failed outcome's text is its messages' text.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { Order, OrderFailure } from '../../../schemas/order.js';
import { compile } from '../../../schemas/validator.js';
import type { TestGateway } from '../../helpers/gateway.js';
import type { PlatformServer } from '../../helpers/platform.js';

export type Transport = 'rest' | 'mcp';

export interface Reply {
  status: number;
  /** The order, a business outcome, or (REST) a transport error body. */
  body: any;
  /** JSON-RPC error on MCP. */
  error?: { code: number; message: string; data?: { code: string } };
}

const validOrder = compile(Order);
const validFailure = compile(OrderFailure);

function expectValid(body: any): void {
  const checked = body?.proto?.status === 'error' ? validFailure(body) : validOrder(body);
  expect(checked.ok, checked.ok ? '' : checked.message).toBe(true);
}

/** `credentials` are HTTP headers (X-API-Key, Authorization), sent on both transports. */
export async function getOrder(
  gw: TestGateway,
  transport: Transport,
  id: string,
  platform: PlatformServer,
  credentials: Record<string, string> = {},
): Promise<Reply> {
  if (transport === 'rest') {
    const res = await gw.app.inject({
      method: 'GET',
      url: `/orders/${encodeURIComponent(id)}`,
      headers: { 'proto-agent': platform.agent(), 'request-id': randomUUID(), ...credentials },
    });
    const body = res.json();
    if (res.statusCode === 200) expectValid(body);
    return { status: res.statusCode, body };
  }
  const res = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...credentials },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: randomUUID(),
      method: 'tools/call',
      params: { name: 'get_order', arguments: { meta: { 'proto-agent': { profile: platform.url() } }, id } },
    }),
  });
  const { result, error } = res.json();
  if (error) return { status: res.statusCode, body: undefined, error };
  expectValid(result.structuredContent);
  const text = result.content[0].text as string;
  if (result.structuredContent.proto.status === 'error')
    expect(text).toBe(result.structuredContent.messages.map((m: { content: string }) => m.content).join('\n'));
  else expect(JSON.parse(text)).toEqual(result.structuredContent);
  return { status: res.statusCode, body: result.structuredContent };
}
