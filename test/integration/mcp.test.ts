import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterOperations } from '../helpers/counter-operation.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let url: string;
beforeAll(async () => {
  gw = await testGateway({ operations: counterOperations });
  url = await gw.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => gw.close());

const rpc = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }) =>
  gw.app.inject({ method: 'POST', url: '/mcp', headers, payload: typeof body === 'string' ? body : JSON.stringify(body) });

const toolCall = (name: string, args: unknown) => rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } });

describe('MCP with the official SDK client over Streamable HTTP', () => {
  it('initializes, lists the tools and calls one', async () => {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    try {
      expect(client.getServerVersion()?.name).toBe('Test Shop');
      const { tools } = await client.listTools();
      const bump = tools.find((t) => t.name === 'bump_counter')!;
      expect(bump.inputSchema.required).toEqual(['meta', 'id', 'cart']);
      expect(bump.inputSchema.properties).toHaveProperty('cart');
      const result = await client.callTool({ name: 'bump_counter', arguments: { meta: gw.meta(), id: 'sdk', cart: { by: 2 } } });
      expect(result.structuredContent).toMatchObject({ proto: { version: '2026-04-08', status: 'success' }, id: 'sdk', value: 2 });
      const content = result.content as Array<{ type: string; text: string }>;
      expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent);
    } finally {
      await client.close();
    }
  });
});

describe('MCP for a stock client (README)', () => {
  it('tools/list says meta is required and where the profile goes; a call with meta["proto-agent"] succeeds', async () => {
    const client = new Client({ name: 'stock-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        expect(tool.inputSchema.required, tool.name).toContain('meta');
        const meta = tool.inputSchema.properties!.meta as { required: string[]; description: string };
        expect(meta.required).toEqual(['proto-agent']);
        expect(meta.description).toContain('meta["proto-agent"].profile');
      }
      const result = await client.callTool({
        name: 'read_counter',
        arguments: { meta: { 'proto-agent': { profile: gw.platform.url() } }, id: 'stock' },
      });
      expect(result.structuredContent).toMatchObject({ proto: { status: 'error' } });
      const refused = client.callTool({ name: 'read_counter', arguments: { id: 'stock' } });
      await expect(refused).rejects.toMatchObject({ code: -32001 });
    } finally {
      await client.close();
    }
  });
});

describe('MCP request metadata in the standard params._meta', () => {
  it('takes the agent profile from _meta["proto-agent"] when arguments.meta has none', async () => {
    const res = await rpc({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'bump_counter', arguments: { id: 'meta-std', cart: { by: 3 } }, _meta: gw.meta() },
    });
    expect(res.json().result.structuredContent).toMatchObject({ proto: { status: 'success' }, id: 'meta-std', value: 3 });
  });

  it('works with a stock SDK client that sends its metadata as _meta', async () => {
    const client = new Client({ name: 'stock-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    try {
      const result = await client.callTool({ name: 'read_counter', arguments: { id: 'meta-std' }, _meta: gw.meta() });
      expect(result.structuredContent).toMatchObject({ proto: { status: 'success' }, value: 3 });
    } finally {
      await client.close();
    }
  });

  it('arguments.meta wins over _meta', async () => {
    const res = await rpc({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: {
        name: 'read_counter',
        arguments: { meta: { 'proto-agent': { profile: 'http://127.0.0.1:1/p' } }, id: 'meta-std' },
        _meta: gw.meta(),
      },
    });
    expect(res.json().error).toMatchObject({ code: -32001, data: { code: 'profile_unreachable' } });
  });
});

describe('MCP as platforms call it: a bare JSON POST', () => {
  it('answers tools/call without initialize or session', async () => {
    const res = await toolCall('bump_counter', { meta: gw.meta(), id: 'bare', cart: { by: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: 7, result: { structuredContent: { value: 1 } } });
  });

  it('gives the same body as REST for the same request', async () => {
    const mcp = await toolCall('read_counter', { meta: gw.meta(), id: 'bare' });
    const rest = await gw.app.inject({ method: 'GET', url: '/counters/bare', headers: gw.headers() });
    expect(mcp.json().result.structuredContent).toEqual(rest.json());
  });

  it('a failed business outcome is a result whose text is the message', async () => {
    const res = await toolCall('read_counter', { meta: gw.meta(), id: 'missing' });
    const { result } = res.json();
    expect(result.structuredContent.proto.status).toBe('error');
    expect(result.content[0].text).toBe('counter missing does not exist');
  });

  it('invalid params are -32602 naming the path', async () => {
    const res = await toolCall('bump_counter', { meta: gw.meta(), id: 'x', cart: { by: 'many' } });
    expect(res.json().error).toMatchObject({ code: -32602, message: '$.by must be integer', data: { code: 'invalid_request' } });
    const idInPayload = await toolCall('bump_counter', { meta: gw.meta(), id: 'x', cart: { by: 1, id: 'x' } });
    expect(idInPayload.json().error.code).toBe(-32602);
  });

  it('arguments that are not an object (null, an array, a string) are -32602 with one short sentence', async () => {
    for (const args of [null, [], 'x']) {
      const { error } = (await toolCall('bump_counter', args)).json();
      expect(error, JSON.stringify(args)).toMatchObject({ code: -32602, message: 'params.arguments must be an object' });
    }
  });

  it('a batch answers its call with null arguments beside the others', async () => {
    const good = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_counter', arguments: { meta: gw.meta(), id: 'x' } } };
    const bad = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_counter', arguments: null } };
    const answers = (await rpc([good, bad])).json<Array<{ id: number; error?: { code: number } }>>();
    expect(answers.map((a) => [a.id, a.error?.code ?? 'result']).sort()).toEqual([
      [1, 'result'],
      [2, -32602],
    ]);
  });

  it('a lone request answers as the SDK answers the same request in a batch', async () => {
    await toolCall('bump_counter', { meta: gw.meta(), id: 'lone', cart: { by: 4 } });
    const call = (name: string, args: unknown) => ({ jsonrpc: '2.0', id: 'same', method: 'tools/call', params: { name, arguments: args } });
    for (const message of [
      call('read_counter', { meta: gw.meta(), id: 'lone' }),
      call('read_counter', { meta: gw.meta(), id: 'never-bumped' }),
      call('launch_rockets', { meta: gw.meta() }),
      call('read_counter', { id: 'lone' }),
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    ]) {
      const [lone, batched] = [await rpc(message), await rpc([message])];
      expect(lone.statusCode, JSON.stringify(message)).toBe(batched.statusCode);
      expect(lone.headers['content-type']).toBe(batched.headers['content-type']);
      expect(lone.json(), JSON.stringify(message)).toEqual(batched.json());
    }
  });

  it('an empty batch is one Invalid Request error (-32600), as JSON-RPC 2.0 answers it', async () => {
    const res = await rpc([]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } });
  });

  it('discovery failures are -32001', async () => {
    const res = await toolCall('bump_counter', { meta: { 'proto-agent': { profile: 'http://127.0.0.1:1/p' } }, id: 'x', cart: { by: 1 } });
    expect(res.json().error).toMatchObject({ code: -32001, data: { code: 'profile_unreachable', http_status: 424 } });
  });

  it('a missing or unreadable profile URL is invalid_profile_url, -32001', async () => {
    for (const meta of [
      undefined,
      {},
      { 'proto-agent': {} },
      { 'proto-agent': { profile: 42 } },
      { 'proto-agent': 'https://agent.example' },
    ]) {
      const res = await toolCall('bump_counter', { ...(meta && { meta }), id: 'x', cart: { by: 1 } });
      expect(res.json().error, JSON.stringify(meta)).toMatchObject({
        code: -32001,
        data: { code: 'invalid_profile_url', http_status: 400 },
      });
    }
  });

  it('an operation the caller did not negotiate is a result with capabilities_incompatible', async () => {
    gw.platform.serve('/catalog-only', {
      proto: { version: '2026-04-08', capabilities: { 'dev.proto.shopping.catalog.search': [{ version: '2026-04-08' }] } },
    });
    const res = await toolCall('bump_counter', {
      meta: { 'proto-agent': { profile: gw.platform.url('/catalog-only') } },
      id: 'x',
      cart: { by: 1 },
    });
    const { result } = res.json();
    expect(result.structuredContent).toMatchObject({
      proto: { status: 'error', capabilities: {} },
      messages: [{ code: 'capabilities_incompatible' }],
    });
    expect(result.content[0].text).toBe(result.structuredContent.messages[0].content);
  });

  it('an unknown tool is an error, not a crash', async () => {
    const res = await toolCall('launch_rockets', { meta: gw.meta() });
    expect(res.json().error.code).toBe(-32602);
  });

  it('malformed JSON is a JSON-RPC parse error', async () => {
    const res = await rpc('{"jsonrpc": "2.0", "method": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('GET on the endpoint is 405: the server is stateless', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/mcp' });
    expect(res.statusCode).toBe(405);
  });

  it('carries a per-call idempotency key', async () => {
    const args = { meta: gw.meta({ 'idempotency-key': randomUUID() }), id: 'idem', cart: { by: 5 } };
    const a = await toolCall('bump_counter', args);
    const b = await toolCall('bump_counter', args);
    expect(b.json().result).toEqual(a.json().result);
  });
});
