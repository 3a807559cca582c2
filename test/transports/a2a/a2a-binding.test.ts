/**
 * The A2A binding's rules on raw A2A 1.0 JSON-RPC (`A2A-Version: 1.0`, `SendMessage`, parts
 * without `kind`): the agent card and the profile's a2a service, free text, duplicate messageIds,
 * errors in JSON-RPC with the protocol's codes, and the caller's profile, signatures and rate
 * limits exactly as on REST. 0.3 clients: a2a-v03.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterOperations } from '../../helpers/counter-operation.js';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { secureGateway } from '../../security/helpers/secure-gateway.js';
import { whoAmI } from '../../security/helpers/probe-operations.js';

const EXTENSION = 'https://proto.dev/a2a/extensions/shopping?v=2026-04-08';

let gw: TestGateway;
beforeAll(async () => {
  gw = await testGateway({ operations: counterOperations, tenant: { a2a: true } });
});
afterAll(() => gw.close());

const dataMessage = (data: Record<string, unknown>, messageId: string = randomUUID(), contextId?: string) => ({
  role: 'ROLE_USER',
  messageId,
  ...(contextId && { contextId }),
  parts: [{ data, mediaType: 'application/json' }],
});

const rpc = (target: TestGateway, message: unknown, headers: Record<string, string | undefined> = {}, method = 'SendMessage') =>
  target.app.inject({
    method: 'POST',
    url: '/a2a',
    headers: Object.fromEntries(
      Object.entries({
        'content-type': 'application/json',
        'a2a-version': '1.0',
        'proto-agent': target.platform.agent(),
        ...headers,
      }).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    payload: JSON.stringify({ jsonrpc: '2.0', id: 5, method, params: { message } }),
  });

/** The protocol error a 1.0 answer carries: a google.rpc.ErrorInfo on the protocol's domain. */
const protocolError = (code: string, httpStatus: number) => ({
  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
  reason: code.toUpperCase(),
  domain: 'proto.dev',
  metadata: expect.objectContaining({ code, http_status: String(httpStatus) }),
});

describe('discovery', () => {
  it('serves the 1.0 agent card: one JSON-RPC interface at 1.0 and 0.3, the protocol extension, a skill per operation', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/.well-known/agent-card.json', headers: { 'a2a-version': '1.0' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary).toContain('a2a-version');
    const card = res.json();
    expect(card).toMatchObject({
      name: 'Test Shop',
      supportedInterfaces: [
        { url: 'https://shop.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'https://shop.example/a2a', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      capabilities: { streaming: true, pushNotifications: false },
    });
    // 1.0 has no card-level endpoint or version: the interfaces say them.
    expect(card).not.toHaveProperty('url');
    expect(card).not.toHaveProperty('protocolVersion');
    const [extension] = card.capabilities.extensions;
    expect(extension.uri).toBe(EXTENSION);
    expect(extension.params.capabilities).toContainEqual({ name: 'dev.proto.shopping.checkout', version: '2026-04-08' });
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(counterOperations.map((op) => op.name));
  });

  it('answers a revalidation with 304 when the card has not changed', async () => {
    const first = await gw.app.inject({ method: 'GET', url: '/.well-known/agent-card.json', headers: { 'a2a-version': '1.0' } });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await gw.app.inject({
      method: 'GET',
      url: '/.well-known/agent-card.json',
      headers: { 'a2a-version': '1.0', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('lists the a2a service in the profile, its endpoint the agent card', async () => {
    const profile = (await gw.app.inject({ method: 'GET', url: '/.well-known/proto' })).json();
    const services = profile.proto.services['dev.proto.shopping'];
    expect(services).toContainEqual({
      version: '2026-04-08',
      spec: 'https://proto.dev/specification/checkout-a2a',
      transport: 'a2a',
      endpoint: 'https://shop.example/.well-known/agent-card.json',
    });
  });

  it('a tenant without a2a has neither the card nor the endpoint, and its profile names no a2a service', async () => {
    const off = await testGateway({ operations: counterOperations });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/.well-known/agent-card.json' })).statusCode).toBe(404);
      expect((await rpc(off, dataMessage({ action: 'read_counter', id: 'a' }))).statusCode).toBe(404);
      const profile = (await off.app.inject({ method: 'GET', url: '/.well-known/proto' })).json();
      expect(profile.proto.services['dev.proto.shopping'].map((s: { transport: string }) => s.transport)).not.toContain('a2a');
    } finally {
      await off.close();
    }
  });
});

describe('SendMessage', () => {
  it('answers an action with the resource under a2a.proto.<capability>, as REST answers it, in the same context', async () => {
    const contextId = randomUUID();
    const res = await rpc(gw, dataMessage({ action: 'bump_counter', id: 'c1', by: 2 }, randomUUID(), contextId));
    expect(res.statusCode).toBe(200);
    const { message } = res.json().result;
    expect(message).toMatchObject({ role: 'ROLE_AGENT', contextId });
    expect(message).not.toHaveProperty('kind');
    const rest = await gw.app.inject({ method: 'GET', url: '/counters/c1', headers: gw.headers() });
    expect(message.parts).toEqual([{ data: { 'a2a.proto.cart': rest.json() }, mediaType: 'application/json' }]);
  });

  it('takes the version as a query parameter too, and Major.Minor only', async () => {
    const asQuery = await gw.app.inject({
      method: 'POST',
      url: '/a2a?A2A-Version=1.0',
      headers: { 'content-type': 'application/json', 'proto-agent': gw.platform.agent() },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: dataMessage({ action: 'read_counter', id: 'c1' }) },
      }),
    });
    expect(asQuery.json().result.message.role).toBe('ROLE_AGENT');
    const patch = await rpc(gw, dataMessage({ action: 'read_counter', id: 'c1' }), { 'a2a-version': '1.0.3' });
    expect(patch.json().result.message.role).toBe('ROLE_AGENT');
  });

  it('refuses a version it does not speak with VersionNotSupportedError', async () => {
    const res = (await rpc(gw, dataMessage({ action: 'read_counter', id: 'c1' }), { 'a2a-version': '2.0' })).json();
    expect(res.error).toMatchObject({ code: -32009, data: [{ reason: 'VERSION_NOT_SUPPORTED' }] });
    expect(res.error.message).toContain('1.0, 0.3');
  });

  it('starts a context when the message names none', async () => {
    const { result } = (await rpc(gw, dataMessage({ action: 'read_counter', id: 'c1' }))).json();
    expect(result.message.contextId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers free text with the structured actions it takes', async () => {
    const res = await rpc(gw, { role: 'ROLE_USER', messageId: randomUUID(), parts: [{ text: 'add roses to my cart' }] });
    const [part] = res.json().result.message.parts;
    expect(part.mediaType).toBe('text/plain');
    for (const op of counterOperations) expect(part.text).toContain(op.name);
    expect(part.text).toContain('a2a.proto.checkout.payment_data');
  });

  it('a repeated messageId is the same request: answered again without running twice; with other content it is refused', async () => {
    const messageId = randomUUID();
    const first = (await rpc(gw, dataMessage({ action: 'bump_counter', id: 'dup', by: 1 }, messageId))).json();
    const again = (await rpc(gw, dataMessage({ action: 'bump_counter', id: 'dup', by: 1 }, messageId))).json();
    expect(again.result.message.parts).toEqual(first.result.message.parts);
    expect(first.result.message.parts[0].data['a2a.proto.cart'].value).toBe(1);
    const read = await gw.app.inject({ method: 'GET', url: '/counters/dup', headers: gw.headers() });
    expect(read.json().value).toBe(1);
    const other = (await rpc(gw, dataMessage({ action: 'bump_counter', id: 'dup', by: 5 }, messageId))).json();
    expect(other.error).toMatchObject({ code: -32000, data: [protocolError('idempotency_key_reused', 409)] });
  });

  it('refuses an unknown action, bad arguments and a missing profile with JSON-RPC errors naming the protocol code', async () => {
    const unknown = (await rpc(gw, dataMessage({ action: 'buy_everything' }))).json();
    expect(unknown).toMatchObject({ id: 5, error: { code: -32602, data: [protocolError('unknown_action', 400)] } });
    expect(unknown.error.message).toContain('bump_counter');
    const invalid = (await rpc(gw, dataMessage({ action: 'bump_counter', id: 'x', by: 'many' }))).json();
    expect(invalid.error).toMatchObject({ code: -32602, message: '$.by must be integer', data: [protocolError('invalid_request', 400)] });
    const noProfile = (await rpc(gw, dataMessage({ action: 'read_counter', id: 'x' }), { 'proto-agent': undefined })).json();
    expect(noProfile.error).toMatchObject({ code: -32001, data: [{ metadata: { http_status: '400' } }] });
    const noId = (await rpc(gw, dataMessage({ action: 'read_counter' }))).json();
    expect(noId.error).toMatchObject({ code: -32602, data: [protocolError('invalid_request', 400)] });
    expect(noId.error.message).toContain('needs "id"');
  });

  it('answers malformed JSON, unknown methods and tasks it never made in JSON-RPC', async () => {
    const bad = await gw.app.inject({
      method: 'POST',
      url: '/a2a',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      payload: '{"jsonrpc":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, data: [protocolError('invalid_json', 400)] } });
    const method = (await rpc(gw, dataMessage({ action: 'read_counter', id: 'c1' }), {}, 'BuyEverything')).json();
    expect(method.error.code).toBe(-32601);
    const task = await gw.app.inject({
      method: 'POST',
      url: '/a2a',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'GetTask', params: { id: 'task-1' } }),
    });
    expect(task.json().error).toMatchObject({ code: -32001, data: [{ reason: 'TASK_NOT_FOUND' }] }); // this agent never creates tasks
    const continued = (await rpc(gw, { ...dataMessage({ action: 'read_counter', id: 'c1' }), taskId: 'task-1' })).json();
    expect(continued.error.code).toBe(-32001);
  });

  it('refuses malformed messages with -32602 and never answers 500', async () => {
    const cases: unknown[] = [
      {},
      { message: 'hello' },
      { message: { role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      { message: { role: 'ROLE_USER', messageId: 'has spaces', parts: [{ text: 'hi' }] } },
      { message: { role: 'ROLE_USER', messageId: 'm1', parts: 'not a list' } },
      { message: { role: 'ROLE_USER', messageId: 'm1', parts: [null, { text: 'hi' }] } },
      { message: { role: 'ROLE_USER', messageId: 'm2', parts: [{ data: { action: 'bump_counter', id: 7, by: 1 } }] } },
      { message: dataMessage({ action: 'read_counter', id: 'c1', 'a2a.proto.checkout.payment_data': { id: 'i' } }) },
      {
        message: {
          ...dataMessage({}),
          parts: [{ data: { action: 'read_counter', id: 'c1' } }, { data: { action: 'read_counter', id: 'c2' } }],
        },
      },
    ];
    for (const params of cases) {
      const res = await gw.app.inject({
        method: 'POST',
        url: '/a2a',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'proto-agent': gw.platform.agent() },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'SendMessage', params }),
      });
      expect(res.statusCode, JSON.stringify(params)).toBe(200);
      expect(res.json(), JSON.stringify(params)).toMatchObject({
        id: 3,
        error: { code: -32602, data: [protocolError('invalid_request', 400)] },
      });
    }
    const huge = await rpc(gw, dataMessage({ pad: 'x'.repeat(70_000) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ jsonrpc: '2.0', error: { data: [protocolError('payload_too_large', 413)] } });
  });

  it('echoes the extension in A2A-Extensions when the client activates it', async () => {
    const res = await rpc(gw, dataMessage({ action: 'read_counter', id: 'c1' }), {
      'a2a-extensions': `https://other.example/ext, ${EXTENSION}`,
    });
    expect(res.headers['a2a-extensions']).toBe(EXTENSION);
    const other = await rpc(gw, dataMessage({ action: 'read_counter', id: 'c1' }), { 'a2a-extensions': `${EXTENSION}x` });
    expect(other.headers['a2a-extensions']).toBeUndefined();
  });
});

describe('the same admission as REST', () => {
  it('a rate-limited caller gets HTTP 429 with Retry-After and retry_after', async () => {
    const limited = await testGateway({
      operations: counterOperations,
      tenant: { a2a: true, policies: { allow_loopback_profiles: true, rate_limits: { per_caller: { max: 1, window_seconds: 30 } } } },
    });
    try {
      expect((await rpc(limited, dataMessage({ action: 'read_counter', id: 'a' }))).statusCode).toBe(200);
      const refused = await rpc(limited, dataMessage({ action: 'read_counter', id: 'a' }));
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.json().error).toMatchObject({ data: [protocolError('rate_limited', 429)] });
      expect(refused.json().error.data[0].metadata.retry_after).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });

  it('authenticates a signed request as the platform; unsigned, the caller is anonymous', async () => {
    const secure = await secureGateway({
      tenant: (platform) => ({ a2a: true, auth: { signatures: { profiles: [platform.url()] } } }),
      operations: [whoAmI],
    });
    try {
      const body = { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: dataMessage({ action: 'who_am_i' }) } };
      const headers = { 'a2a-version': '1.0' };
      const principalOf = (res: { json(): any }) => res.json().result.message.parts[0].data['a2a.proto.cart'].principal;
      const signed = await secure.call({ method: 'POST', path: '/a2a', body, headers, sign: {} });
      expect(principalOf(signed)).toEqual({ kind: 'platform', profileUrl: secure.platform.url(), via: 'signature' });
      const unsigned = await secure.call({ method: 'POST', path: '/a2a', body, headers, sign: false });
      expect(principalOf(unsigned)).toEqual({ kind: 'anonymous' });
    } finally {
      await secure.close();
    }
  });
});
