/**
 * Identity failures are protocol error responses (upstream identity-linking.md "Error Handling"),
 * on every transport that can meet them: the `proto` envelope with status "error" and one error
 * message, `identity_required` (401: no token, or one that is invalid, expired, revoked or issued
 * to another platform's client) or `insufficient_scope` (403), severity `requires_buyer_review`,
 * beside the Bearer challenge (REST's WWW-Authenticate; `www_authenticate` in MCP's and A2A's
 * JSON-RPC error data). The embedded page's RPC answers as REST does.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORDER_MANAGE, ORDER_READ } from '../../src/security/auth/scopes.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { line } from '../capabilities/checkout/checkout-gateway.js';
import { EMBEDDED, pageCall } from '../embedded/embedded-gateway.js';
import { linkBuyer, tokenRequest } from './helpers/link.js';

const ISSUER = 'https://shop.example';
const RESOURCE_METADATA = `${ISSUER}/.well-known/oauth-protected-resource`;
const CALLBACK = 'http://127.0.0.1/callback';
const JANE = { email: 'jane.smith@example.com', password: 'demo-flowers' };
const B_KEY = 'platform-b-api-key-0123456789';

let b: PlatformServer;
let c: PlatformServer;
let gw: OrderGateway;
/** Jane's tokens: B's with order:read, B's revoked one, B's with order:manage only, and C's. */
const tokens = { read: '', revoked: '', manage: '', forC: '' };

beforeAll(async () => {
  [b, c] = await Promise.all([startPlatform(), startPlatform()]);
  gw = await orderGateway({
    platform: b,
    tenant: {
      capabilities: { ...baseTenantConfig.capabilities, 'dev.proto.common.identity_linking': {} },
      a2a: true,
      embedded: EMBEDDED,
      identity_linking: {
        clients: [
          { client_id: 'platform-b', profile: b.url(), redirect_uris: [CALLBACK] },
          { client_id: 'platform-c', profile: c.url(), redirect_uris: [CALLBACK] },
        ],
      },
      // Checkouts need a credential, so the page asks its host for one (EP-Auth: a bearer token here).
      auth: {
        required_capabilities: ['dev.proto.shopping.checkout'],
        api_keys: [{ sha256: createHash('sha256').update(B_KEY).digest('hex'), profile: b.url() }],
      },
    },
  });
  tokens.read = await janeToken('platform-b', ORDER_READ);
  tokens.revoked = await janeToken('platform-b', ORDER_READ);
  const revoked = await gw.app.inject({
    method: 'POST',
    url: '/oauth2/revoke',
    headers: { host: 'shop.example', 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token: tokens.revoked, token_type_hint: 'access_token', client_id: 'platform-b' }).toString(),
  });
  expect(revoked.statusCode).toBe(200);
  tokens.manage = await janeToken('platform-b', ORDER_MANAGE);
  tokens.forC = await janeToken('platform-c', ORDER_READ);
});
afterAll(async () => {
  await gw.close();
  await Promise.all([b.close(), c.close()]);
});
afterEach(() => {
  vi.useRealTimers();
});

async function janeToken(clientId: string, scope: string): Promise<string> {
  const { code, verifier } = await linkBuyer(gw.app, { clientId, redirectUri: CALLBACK, scope, ...JANE });
  const token = await tokenRequest(gw.app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
    client_id: clientId,
  });
  expect(token.status).toBe(200);
  return token.body.access_token!;
}

/** What a caller learns from a refused call on any transport. */
interface Refusal {
  status: number;
  challenge: unknown;
  /** The protocol error response: REST's body, the JSON-RPC error data's `proto` and `messages`. */
  response: unknown;
}

type Transport = 'rest' | 'mcp' | 'a2a' | 'a2a-1.0';

/** get_order of `orderId` by platform B with `credentials`, refused. */
async function refusedGetOrder(transport: Transport, orderId: string, credentials: Record<string, string>): Promise<Refusal> {
  if (transport === 'rest') {
    const res = await gw.app.inject({
      method: 'GET',
      url: `/orders/${orderId}`,
      headers: { 'proto-agent': b.agent(), 'request-id': randomUUID(), ...credentials },
    });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return { status: res.statusCode, challenge: res.headers['www-authenticate'], response: res.json() };
  }
  const rpc =
    transport === 'mcp'
      ? {
          url: '/mcp',
          headers: { accept: 'application/json' },
          body: {
            method: 'tools/call',
            params: { name: 'get_order', arguments: { meta: { 'proto-agent': { profile: b.url() } }, id: orderId } },
          },
        }
      : transport === 'a2a'
        ? {
            url: '/a2a',
            headers: { 'proto-agent': b.agent() },
            body: {
              method: 'message/send',
              params: {
                message: {
                  kind: 'message',
                  role: 'user',
                  messageId: randomUUID(),
                  parts: [{ kind: 'data', data: { action: 'get_order', id: orderId } }],
                },
              },
            },
          }
        : {
            url: '/a2a',
            headers: { 'proto-agent': b.agent(), 'a2a-version': '1.0' },
            body: {
              method: 'SendMessage',
              params: {
                message: {
                  role: 'ROLE_USER',
                  messageId: randomUUID(),
                  parts: [{ data: { action: 'get_order', id: orderId }, mediaType: 'application/json' }],
                },
              },
            },
          };
  const res = await gw.app.inject({
    method: 'POST',
    url: rpc.url,
    headers: { 'content-type': 'application/json', ...rpc.headers, ...credentials },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 7, ...rpc.body }),
  });
  const { error } = res.json();
  expect(error).toMatchObject({ code: -32000, message: expect.any(String) });
  const details = transport === 'a2a-1.0' ? a2aDetails(error.data) : error.data;
  const { http_status, www_authenticate, proto, messages } = details;
  // The error's message is the message's content; data.code names it as for every other error.
  expect(error.message).toBe(messages?.[0]?.content);
  expect(details.code).toBe(messages?.[0]?.code);
  return { status: http_status, challenge: www_authenticate, response: { proto, messages } };
}

/** A2A 1.0's typed error details (§9.5): the ErrorInfo's metadata as strings, then the protocol error response as a Struct. */
function a2aDetails(data: [Record<string, any>, Record<string, any>]): Record<string, any> {
  const [info, response] = data;
  expect(info['@type']).toBe('type.googleapis.com/google.rpc.ErrorInfo');
  expect(response['@type']).toBe('type.googleapis.com/google.protobuf.Struct');
  const { http_status, ...metadata } = info.metadata;
  return { ...metadata, http_status: Number(http_status), ...response.value };
}

const errorResponse = (code: 'identity_required' | 'insufficient_scope') => ({
  proto: { version: '2026-04-08', status: 'error' },
  messages: [{ type: 'error', code, content: expect.any(String), severity: 'requires_buyer_review' }],
});

const invalidToken = expect.stringMatching(
  new RegExp(`^Bearer realm="${ISSUER}", error="invalid_token", error_description="[^"]+", resource_metadata="${RESOURCE_METADATA}"$`),
);

describe.each<Transport>(['rest', 'mcp', 'a2a', 'a2a-1.0'])('get_order over %s', (transport) => {
  let orderId: string;
  beforeAll(async () => {
    orderId = await gw.placeOrder({ profileUrl: c.url(), buyerId: 'cust_2' });
  });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('no token: 401 identity_required, the challenge without an error', async () => {
    expect(await refusedGetOrder(transport, orderId, {})).toEqual({
      status: 401,
      challenge: `Bearer realm="${ISSUER}", resource_metadata="${RESOURCE_METADATA}"`,
      response: errorResponse('identity_required'),
    });
  });

  it('a token this store never issued: 401 identity_required, error="invalid_token"', async () => {
    expect(await refusedGetOrder(transport, orderId, bearer('not-a-token-of-this-store'))).toEqual({
      status: 401,
      challenge: invalidToken,
      response: errorResponse('identity_required'),
    });
  });

  it('an expired token: 401 identity_required, error="invalid_token"', async () => {
    // An hour (the lifetime) and a minute (past oidc-provider's clock tolerance) later.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3660_000 });
    expect(await refusedGetOrder(transport, orderId, bearer(tokens.read))).toEqual({
      status: 401,
      challenge: invalidToken,
      response: errorResponse('identity_required'),
    });
  });

  it('a revoked token: 401 identity_required, error="invalid_token"', async () => {
    expect(await refusedGetOrder(transport, orderId, bearer(tokens.revoked))).toEqual({
      status: 401,
      challenge: invalidToken,
      response: errorResponse('identity_required'),
    });
  });

  it('a token issued to another platform\'s client: 401 identity_required, error="invalid_token"', async () => {
    expect(await refusedGetOrder(transport, orderId, bearer(tokens.forC))).toEqual({
      status: 401,
      challenge: invalidToken,
      response: errorResponse('identity_required'),
    });
  });

  it('a token without order:read: 403 insufficient_scope, the full scope set in the challenge', async () => {
    expect(await refusedGetOrder(transport, orderId, bearer(tokens.manage))).toEqual({
      status: 403,
      challenge: `Bearer realm="${ISSUER}", error="insufficient_scope", scope="${ORDER_READ}", resource_metadata="${RESOURCE_METADATA}"`,
      response: errorResponse('insufficient_scope'),
    });
  });
});

describe("the embedded page's RPC, which sends the host's credential as EP-Auth (a bearer token here)", () => {
  let pageUrl: string;
  beforeAll(async () => {
    const created = await gw.app.inject({
      method: 'POST',
      url: '/checkout-sessions',
      headers: gw.headers({ 'x-api-key': B_KEY }),
      payload: JSON.stringify({ line_items: [line('pot_ceramic')] }),
    });
    expect(created.statusCode).toBe(201);
    pageUrl = created.json().continue_url;
  });
  const read = (credential: string) => pageCall(gw, pageUrl, 'get_checkout', undefined, { key: null, headers: { 'ep-auth': credential } });

  it('admits Jane’s token for the platform that owns the checkout', async () => {
    expect((await read(tokens.read)).status).toBe(200);
  });

  it('no credential: 401 authentication_required (a checkout is gated by no linking scope), with the challenge', async () => {
    const res = await pageCall(gw, pageUrl, 'get_checkout', undefined, { key: null });
    expect({ status: res.status, challenge: res.headers['www-authenticate'], code: res.body.code }).toEqual({
      status: 401,
      challenge: `Bearer realm="${ISSUER}", resource_metadata="${RESOURCE_METADATA}"`,
      code: 'authentication_required',
    });
  });

  it.each([
    ['never issued', () => 'not-a-token-of-this-store'],
    ['revoked', () => tokens.revoked],
    ["issued to another platform's client", () => tokens.forC],
  ])('a token %s: 401 identity_required with the challenge', async (_, token) => {
    const res = await read(token());
    expect({ status: res.status, challenge: res.headers['www-authenticate'], response: res.body }).toEqual({
      status: 401,
      challenge: invalidToken,
      response: errorResponse('identity_required'),
    });
  });

  it('an expired token: 401 identity_required with the challenge', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3660_000 });
    const res = await read(tokens.read);
    expect({ status: res.status, challenge: res.headers['www-authenticate'], response: res.body }).toEqual({
      status: 401,
      challenge: invalidToken,
      response: errorResponse('identity_required'),
    });
  });
});
