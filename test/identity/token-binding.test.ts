/**
 * Buyer tokens at work across platforms (issue 29 "Done when"): a buyer's order placed through
 * one platform is readable by another platform holding that buyer's order:read token, and by no
 * one else. Every user-authenticated request checks the token's issuer (this tenant's server),
 * audience, expiry, scopes and client against the calling platform.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveOrderRecord } from '../../src/capabilities/order/order-record.js';
import { ORDER_MANAGE, ORDER_READ } from '../../src/security/auth/scopes.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { NOW, orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { linkBuyer, tokenRequest } from './helpers/link.js';

const CALLBACK = 'http://127.0.0.1/callback';
const JANE = { email: 'jane.smith@example.com', password: 'demo-flowers' };
const C_KEY = 'platform-c-api-key-0123456789';

/** A places Jane's order; B and C are platforms Jane may link; `twin` is another tenant on the same store. */
let a: PlatformServer;
let b: PlatformServer;
let c: PlatformServer;
let gw: OrderGateway;
let twin: OrderGateway;
const store = new MemoryStore({ now: () => NOW });

const linking = () => ({
  capabilities: { 'dev.proto.shopping.order': {}, 'dev.proto.common.identity_linking': {} },
  identity_linking: {
    clients: [
      { client_id: 'platform-b', profile: b.url(), redirect_uris: [CALLBACK] },
      { client_id: 'platform-c', profile: c.url(), redirect_uris: [CALLBACK] },
    ],
  },
});

beforeAll(async () => {
  [a, b, c] = await Promise.all([startPlatform(), startPlatform(), startPlatform()]);
  gw = await orderGateway({
    platform: a,
    store,
    tenant: {
      ...linking(),
      auth: { api_keys: [{ sha256: createHash('sha256').update(C_KEY).digest('hex'), profile: c.url() }] },
    },
  });
  twin = await orderGateway({
    platform: a,
    store,
    tenant: { id: 'twin', name: 'Twin Shop', base_url: 'https://twin.example', ...linking() },
  });
});
afterAll(async () => {
  await gw.close();
  await twin.close();
  await Promise.all([a.close(), b.close(), c.close(), store.close()]);
});
afterEach(() => {
  vi.useRealTimers();
});

async function janeToken(app = gw.app, clientId = 'platform-b', scope = ORDER_READ): Promise<string> {
  const { code, verifier } = await linkBuyer(app, { clientId, redirectUri: CALLBACK, scope, ...JANE });
  const token = await tokenRequest(app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
    client_id: clientId,
  });
  expect(token.status).toBe(200);
  return token.body.access_token!;
}

function getOrder(orderId: string, platform: PlatformServer, credentials: Record<string, string> = {}, on = gw) {
  return on.app.inject({
    method: 'GET',
    url: `/orders/${orderId}`,
    headers: { ...on.headers({ 'proto-agent': platform.agent() }), ...credentials },
  });
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const outcome = (res: { statusCode: number; json(): any }) => {
  const body = res.json();
  return { status: res.statusCode, code: body.messages?.[0]?.code ?? body.code };
};

describe("Jane's order placed through platform A", () => {
  let orderId: string;
  let token: string;
  beforeAll(async () => {
    orderId = await gw.placeOrder({ profileUrl: a.url(), buyerId: 'cust_2' });
    token = await janeToken();
  });

  it("is readable by platform B holding Jane's order:read token", async () => {
    const res = await getOrder(orderId, b, bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(orderId);
  });

  it('and by no one else: B without the token, C with its own credentials, C with B’s token', async () => {
    expect(outcome(await getOrder(orderId, b))).toEqual({ status: 401, code: 'identity_required' });
    expect(outcome(await getOrder(orderId, c))).toEqual({ status: 401, code: 'identity_required' });
    expect(outcome(await getOrder(orderId, c, { 'x-api-key': C_KEY }))).toEqual({ status: 200, code: 'unauthorized' });
    // The client binding: a token issued to B, presented by C (client_id ≠ the calling platform), is not valid for C.
    expect(outcome(await getOrder(orderId, c, bearer(token)))).toEqual({ status: 401, code: 'identity_required' });
    expect(outcome(await getOrder(orderId, c, { ...bearer(token), 'x-api-key': C_KEY }))).toEqual({
      status: 401,
      code: 'identity_required',
    });
  });

  it("Jane's token does not reach John's order, whoever placed it", async () => {
    const johns = await gw.placeOrder({ profileUrl: b.url(), buyerId: 'cust_1' });
    expect(outcome(await getOrder(johns, b, bearer(token)))).toEqual({ status: 200, code: 'unauthorized' });
  });
});

describe('what a buyer token is checked for', () => {
  it('iss: a token of another tenant’s authorization server (same store, same client id) is invalid_token here', async () => {
    const orderId = await gw.placeOrder({ profileUrl: a.url(), buyerId: 'cust_2' });
    const fromTwin = await janeToken(twin.app);
    const res = await getOrder(orderId, b, bearer(fromTwin));
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
    // …while on its own tenant the same token is a valid one (for that tenant's orders).
    const twinOrder = await twin.placeOrder({ profileUrl: a.url(), buyerId: 'cust_2' });
    expect((await getOrder(twinOrder, b, bearer(fromTwin), twin)).statusCode).toBe(200);
  });

  it('aud: a token for another resource is not issued (invalid_target); the tenant’s own is its base URL', async () => {
    const { code, verifier } = await linkBuyer(gw.app, { clientId: 'platform-b', redirectUri: CALLBACK, scope: ORDER_READ, ...JANE });
    const other = await tokenRequest(gw.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: 'platform-b',
      resource: 'https://elsewhere.example',
    });
    expect(other).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('exp: an expired access token is invalid_token', async () => {
    const orderId = await gw.placeOrder({ profileUrl: a.url(), buyerId: 'cust_2' });
    const token = await janeToken();
    expect((await getOrder(orderId, b, bearer(token))).statusCode).toBe(200);
    // The authorization server dates tokens by the process clock: an hour (the lifetime) and a minute later
    // (past oidc-provider's clock tolerance).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3660_000 });
    const res = await getOrder(orderId, b, bearer(token));
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('scopes: order:manage alone does not read (403 insufficient_scope)', async () => {
    const orderId = await gw.placeOrder({ profileUrl: a.url(), buyerId: 'cust_2' });
    const manage = await janeToken(gw.app, 'platform-b', ORDER_MANAGE);
    expect(outcome(await getOrder(orderId, b, bearer(manage)))).toEqual({ status: 403, code: 'insufficient_scope' });
  });

  it('client: a token C obtained for Jane works for C alone', async () => {
    const orderId = await gw.placeOrder({ profileUrl: a.url(), buyerId: 'cust_2' });
    const forC = await janeToken(gw.app, 'platform-c');
    expect((await getOrder(orderId, c, bearer(forC))).statusCode).toBe(200);
    const refused = await getOrder(orderId, b, bearer(forC));
    expect(outcome(refused)).toEqual({ status: 401, code: 'identity_required' });
    expect(refused.headers['www-authenticate']).toContain('error="invalid_token"');
  });
});

describe("a buyer's orders: the store's customer id, else the email the store verified", () => {
  let jane: string;
  let john: string;
  beforeAll(async () => {
    jane = await janeToken();
    const { code, verifier } = await linkBuyer(gw.app, {
      clientId: 'platform-b',
      redirectUri: CALLBACK,
      scope: ORDER_READ,
      email: 'john.doe@example.com',
      password: 'demo-flowers',
    });
    john = (
      await tokenRequest(gw.app, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: 'platform-b',
      })
    ).body.access_token!;
  });

  it("a guest order with Jane's email (in any case) is hers; one with John's email is not", async () => {
    const guest = await gw.placeOrder({ profileUrl: a.url(), email: 'Jane.Smith@Example.com' });
    expect((await getOrder(guest, b, bearer(jane))).statusCode).toBe(200);
    expect(outcome(await getOrder(guest, b, bearer(john)))).toEqual({ status: 200, code: 'unauthorized' });
    const johns = await gw.placeOrder({ profileUrl: a.url(), email: 'john.doe@example.com' });
    expect(outcome(await getOrder(johns, b, bearer(jane)))).toEqual({ status: 200, code: 'unauthorized' });
    expect((await getOrder(johns, b, bearer(john))).statusCode).toBe(200);
  });

  it("the store's customer on the order decides before the email: John signed in, typing Jane's email", async () => {
    const order = await gw.placeOrder({ profileUrl: a.url(), customerId: 'cust_1', email: 'jane.smith@example.com' });
    expect(outcome(await getOrder(order, b, bearer(jane)))).toEqual({ status: 200, code: 'unauthorized' });
    expect((await getOrder(order, b, bearer(john))).statusCode).toBe(200);
    const hers = await gw.placeOrder({ profileUrl: a.url(), customerId: 'cust_2', email: 'someone@example.com' });
    expect((await getOrder(hers, b, bearer(jane))).statusCode).toBe(200);
  });

  it('an order the store no longer has, with no buyer recorded, belongs to no buyer (unauthorized)', async () => {
    const record = await gw.placeInStore({ profileUrl: a.url(), email: 'jane.smith@example.com' });
    await saveOrderRecord({ store, tenant: gw.tenant }, { ...record, orderId: 'ord_gone' });
    expect(outcome(await getOrder('ord_gone', b, bearer(jane)))).toEqual({ status: 200, code: 'unauthorized' });
  });
});
