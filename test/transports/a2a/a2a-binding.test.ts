/**
 * The A2A binding's rules, on raw JSON-RPC: the agent card and the profile's a2a service, free
 * text, duplicate messageIds, errors in JSON-RPC with the protocol's codes, and the caller's
 * profile, signatures and rate limits exactly as on REST.
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
  kind: 'message',
  role: 'user',
  messageId,
  ...(contextId && { contextId }),
  parts: [{ kind: 'data', data }],
});

const rpc = (target: TestGateway, message: unknown, headers: Record<string, string | undefined> = {}, method = 'message/send') =>
  target.app.inject({
    method: 'POST',
    url: '/a2a',
    headers: Object.fromEntries(
      Object.entries({ 'content-type': 'application/json', 'proto-agent': target.platform.agent(), ...headers }).filter(
        (e): e is [string, string] => e[1] !== undefined,
      ),
    ),
    payload: JSON.stringify({ jsonrpc: '2.0', id: 5, method, params: { message } }),
  });

describe('discovery', () => {
  it('serves the agent card with the protocol extension, the capabilities and a skill per operation', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/.well-known/agent-card.json' });
    expect(res.statusCode).toBe(200);
    const card = res.json();
    expect(card).toMatchObject({
      name: 'Test Shop',
      url: 'https://shop.example/a2a',
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3.0',
    });
    const [extension] = card.capabilities.extensions;
    expect(extension.uri).toBe(EXTENSION);
    expect(extension.params.capabilities).toContainEqual({ name: 'dev.proto.shopping.checkout', version: '2026-04-08' });
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual(counterOperations.map((op) => op.name));
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

describe('message/send', () => {
  it('answers an action with the resource under a2a.proto.<capability>, as REST answers it, in the same context', async () => {
    const contextId = randomUUID();
    const res = await rpc(gw, dataMessage({ action: 'bump_counter', id: 'c1', by: 2 }, randomUUID(), contextId));
    expect(res.statusCode).toBe(200);
    const { result } = res.json();
    expect(result).toMatchObject({ kind: 'message', role: 'agent', contextId });
    const rest = await gw.app.inject({ method: 'GET', url: '/counters/c1', headers: gw.headers() });
    expect(result.parts).toEqual([{ kind: 'data', data: { 'a2a.proto.cart': rest.json() } }]);
  });

  it('starts a context when the message names none', async () => {
    const { result } = (await rpc(gw, dataMessage({ action: 'read_counter', id: 'c1' }))).json();
    expect(result.contextId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers free text with the structured actions it takes', async () => {
    const res = await rpc(gw, {
      kind: 'message',
      role: 'user',
      messageId: randomUUID(),
      parts: [{ kind: 'text', text: 'add roses to my cart' }],
    });
    const [part] = res.json().result.parts;
    expect(part.kind).toBe('text');
    for (const op of counterOperations) expect(part.text).toContain(op.name);
    expect(part.text).toContain('a2a.proto.checkout.payment_data');
  });

  it('a repeated messageId is the same request: answered again without running twice; with other content it is refused', async () => {
    const messageId = randomUUID();
    const first = (await rpc(gw, dataMessage({ action: 'bump_counter', id: 'dup', by: 1 }, messageId))).json();
    const again = (await rpc(gw, dataMessage({ action: 'bump_counter', id: 'dup', by: 1 }, messageId))).json();
    expect(again.result.parts).toEqual(first.result.parts);
    expect(first.result.parts[0].data['a2a.proto.cart'].value).toBe(1);
    const read = await gw.app.inject({ method: 'GET', url: '/counters/dup', headers: gw.headers() });
    expect(read.json().value).toBe(1);
    const other = (await rpc(gw, dataMessage({ action: 'bump_counter', id: 'dup', by: 5 }, messageId))).json();
    expect(other.error).toMatchObject({ code: -32000, data: { code: 'idempotency_key_reused', http_status: 409 } });
  });

  it('refuses an unknown action, bad arguments and a missing profile with JSON-RPC errors naming the protocol code', async () => {
    const unknown = (await rpc(gw, dataMessage({ action: 'buy_everything' }))).json();
    expect(unknown).toMatchObject({ id: 5, error: { code: -32602, data: { code: 'unknown_action' } } });
    expect(unknown.error.message).toContain('bump_counter');
    const invalid = (await rpc(gw, dataMessage({ action: 'bump_counter', id: 'x', by: 'many' }))).json();
    expect(invalid.error).toMatchObject({ code: -32602, message: '$.by must be integer', data: { code: 'invalid_request' } });
    const noProfile = (await rpc(gw, dataMessage({ action: 'read_counter', id: 'x' }), { 'proto-agent': undefined })).json();
    expect(noProfile.error).toMatchObject({ code: -32001, data: { http_status: 400 } });
    const noId = (await rpc(gw, dataMessage({ action: 'read_counter' }))).json();
    expect(noId.error).toMatchObject({ code: -32602, data: { code: 'invalid_request' } });
    expect(noId.error.message).toContain('needs "id"');
  });

  it('answers malformed JSON and unknown methods in JSON-RPC', async () => {
    const bad = await gw.app.inject({
      method: 'POST',
      url: '/a2a',
      headers: { 'content-type': 'application/json' },
      payload: '{"jsonrpc":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const method = (await rpc(gw, dataMessage({ action: 'read_counter', id: 'c1' }), {}, 'tasks/get')).json();
    expect(method.error.code).toBe(-32001); // A2A TaskNotFoundError: this agent never creates tasks
  });

  it('refuses malformed messages with -32602 and never answers 500', async () => {
    const send = (params: unknown) =>
      gw.app.inject({
        method: 'POST',
        url: '/a2a',
        headers: { 'content-type': 'application/json', 'proto-agent': gw.platform.agent() },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'message/send', params }),
      });
    const cases: unknown[] = [
      {},
      { message: 'hello' },
      { message: { kind: 'message', role: 'user', parts: [] } },
      { message: { kind: 'message', role: 'user', messageId: 'has spaces', parts: [] } },
      { message: { kind: 'message', role: 'user', messageId: 'm1', parts: 'not a list' } },
      {
        message: {
          kind: 'message',
          role: 'user',
          messageId: 'm2',
          parts: [{ kind: 'data', data: { action: 'bump_counter', id: 7, by: 1 } }],
        },
      },
      { message: dataMessage({ action: 'read_counter', id: 'c1', 'a2a.proto.checkout.payment_data': { id: 'i' } }) },
      {
        message: {
          ...dataMessage({ action: 'read_counter', id: 'c1' }),
          parts: [
            { kind: 'data', data: { action: 'read_counter', id: 'c1' } },
            { kind: 'data', data: { action: 'read_counter', id: 'c2' } },
          ],
        },
      },
    ];
    for (const params of cases) {
      const res = await send(params);
      expect(res.statusCode, JSON.stringify(params)).toBe(200);
      expect(res.json(), JSON.stringify(params)).toMatchObject({ id: 3, error: { code: -32602, data: { code: 'invalid_request' } } });
    }
    const huge = await gw.app.inject({
      method: 'POST',
      url: '/a2a',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'message/send',
        params: { message: dataMessage({ pad: 'x'.repeat(70_000) }) },
      }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'payload_too_large' } } });
  });

  it('echoes the extension header when the client activates the extension', async () => {
    const res = await rpc(gw, dataMessage({ action: 'read_counter', id: 'c1' }), { 'x-a2a-extensions': EXTENSION });
    expect(res.headers['x-a2a-extensions']).toBe(EXTENSION);
  });
});

describe('the same admission as REST', () => {
  it('a rate-limited caller gets HTTP 429 with Retry-After and data.retry_after', async () => {
    const limited = await testGateway({
      operations: counterOperations,
      tenant: { a2a: true, policies: { allow_loopback_profiles: true, rate_limits: { per_caller: { max: 1, window_seconds: 30 } } } },
    });
    try {
      expect((await rpc(limited, dataMessage({ action: 'read_counter', id: 'a' }))).statusCode).toBe(200);
      const refused = await rpc(limited, dataMessage({ action: 'read_counter', id: 'a' }));
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.json().error).toMatchObject({ data: { code: 'rate_limited', http_status: 429, retry_after: expect.any(Number) } });
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
      const body = { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: dataMessage({ action: 'who_am_i' }) } };
      const signed = (await secure.call({ method: 'POST', path: '/a2a', body, sign: {} })).json();
      expect(signed.result.parts[0].data['a2a.proto.cart'].principal).toEqual({
        kind: 'platform',
        profileUrl: secure.platform.url(),
        via: 'signature',
      });
      const unsigned = (await secure.call({ method: 'POST', path: '/a2a', body, sign: false })).json();
      expect(unsigned.result.parts[0].data['a2a.proto.cart'].principal).toEqual({ kind: 'anonymous' });
    } finally {
      await secure.close();
    }
  });
});
