/**
 * Clients that predate A2A 1.0 keep working: a request without `A2A-Version` is 0.3 (A2A 1.0
 * §3.6.2). It gets the hybrid agent card (the 0.3 `url` beside the 1.0 interfaces), `message/send`
 * with `kind` parts, upstream's `"type": "data"` parts, errors with `data: {code, http_status}`;
 * and the stock 0.3 SDK client (@a2a-js/sdk 0.3.14) searches the catalog as before.
 */
import { randomUUID } from 'node:crypto';
import type { DataPart, Message } from 'a2a-sdk-v0.3';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from 'a2a-sdk-v0.3/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterOperations } from '../../helpers/counter-operation.js';
import { demoGateway, type DemoGateway } from '../../helpers/demo-gateway.js';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';

const EXTENSION = 'https://proto.dev/a2a/extensions/shopping?v=2026-04-08';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ operations: counterOperations, tenant: { a2a: true } });
});
afterAll(() => gw.close());

const dataMessage = (data: Record<string, unknown>, messageId: string = randomUUID()) => ({
  kind: 'message',
  role: 'user',
  messageId,
  parts: [{ kind: 'data', data }],
});

const rpc = (message: unknown, headers: Record<string, string> = {}, method = 'message/send') =>
  gw.app.inject({
    method: 'POST',
    url: '/a2a',
    headers: { 'content-type': 'application/json', 'proto-agent': gw.platform.agent(), ...headers },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 5, method, params: { message } }),
  });

describe('a 0.3 client on the wire', () => {
  it('gets the hybrid card: the 0.3 url, transport and version beside the 1.0 interfaces', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/.well-known/agent-card.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      url: 'https://shop.example/a2a',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
      supportedInterfaces: [{ protocolVersion: '1.0' }, { protocolVersion: '0.3' }],
      capabilities: { extensions: [{ uri: EXTENSION }] },
    });
    const current = await gw.app.inject({ method: 'GET', url: '/.well-known/agent-card.json', headers: { 'a2a-version': '1.0' } });
    expect(current.headers.etag).not.toBe(res.headers.etag);
  });

  it('sends message/send with kind parts and gets a 0.3 Message with the resource under a2a.proto.<capability>', async () => {
    const res = await rpc({ ...dataMessage({ action: 'bump_counter', id: 'v03', by: 2 }), contextId: 'ctx-v03' });
    expect(res.statusCode).toBe(200);
    const { result } = res.json();
    expect(result).toMatchObject({ kind: 'message', role: 'agent', contextId: 'ctx-v03' });
    const rest = await gw.app.inject({ method: 'GET', url: '/counters/v03', headers: gw.headers() });
    expect(result.parts).toEqual([{ kind: 'data', data: { 'a2a.proto.cart': rest.json() } }]);
  });

  it("takes upstream's parts that name their kind `type`", async () => {
    const message = { ...dataMessage({}), parts: [{ type: 'data', data: { action: 'read_counter', id: 'v03' } }] };
    const { result } = (await rpc(message)).json();
    expect(result.parts[0].data['a2a.proto.cart']).toMatchObject({ id: 'v03', value: 2 });
  });

  it('streams the answer as one server-sent 0.3 event', async () => {
    const res = await rpc(dataMessage({ action: 'read_counter', id: 'v03' }), {}, 'message/stream');
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = res.body.split('\n\n').filter(Boolean);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.replace(/^data: /, ''))).toMatchObject({ id: 5, result: { kind: 'message', role: 'agent' } });
  });

  it('reads errors as before: data {code, http_status, retry_after}', async () => {
    const unknown = (await rpc(dataMessage({ action: 'buy_everything' }))).json();
    expect(unknown.error).toMatchObject({ code: -32602, data: { code: 'unknown_action', http_status: 400 } });
    const bad = await gw.app.inject({
      method: 'POST',
      url: '/a2a',
      headers: { 'content-type': 'application/json' },
      payload: '{"jsonrpc":',
    });
    expect(bad.json()).toMatchObject({ id: null, error: { code: -32700, data: { code: 'invalid_json', http_status: 400 } } });
    const task = (await rpc(dataMessage({ action: 'read_counter', id: 'v03' }), {}, 'tasks/get')).json();
    expect(task.error.code).toBe(-32602); // tasks/get names a task in params.id, and this one names none
    const malformed = (await rpc({ kind: 'message', role: 'user', messageId: 'm1', parts: 'not a list' })).json();
    expect(malformed.error.code).toBe(-32602);
  });

  it('activates the extension with X-A2A-Extensions, echoed under that name', async () => {
    const res = await rpc(dataMessage({ action: 'read_counter', id: 'v03' }), { 'x-a2a-extensions': EXTENSION });
    expect(res.headers['x-a2a-extensions']).toBe(EXTENSION);
  });
});

describe('the stock 0.3 SDK client', () => {
  let demo: DemoGateway;
  beforeAll(async () => {
    demo = await demoGateway({ tenant: { a2a: true } });
  });
  afterAll(() => demo.close());

  it('reads the card, searches and streams, as it did before the gateway spoke 1.0', async () => {
    const local = await demo.app.listen({ port: 0, host: '127.0.0.1' });
    const fetchImpl: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('proto-agent', demo.platform.agent());
      return fetch(String(input instanceof Request ? input.url : input).replace('https://shop.example', local), { ...init, headers });
    };
    const client = await new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }).createFromUrl('https://shop.example');
    const search = { kind: 'data' as const, data: { action: 'search_catalog', query: 'roses' } };
    const message = () => ({ message: { kind: 'message' as const, role: 'user' as const, messageId: randomUUID(), parts: [search] } });
    const answer = (await client.sendMessage(message())) as Message;
    const found = (answer.parts[0] as DataPart).data['a2a.proto.catalog.search'] as { products: Array<{ id: string }> };
    expect(found.products.map((p) => p.id)).toContain('bouquet_roses');
    const events = [];
    for await (const event of client.sendMessageStream(message())) events.push(event);
    expect(events).toMatchObject([{ kind: 'message', role: 'agent' }]);
  });
});
