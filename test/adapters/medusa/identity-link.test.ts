/**
 * A Medusa tenant links a buyer through Medusa's own customer accounts, against the real Medusa
 * server of this run: a customer registers as a Medusa storefront registers one, signs in on the
 * gateway's login page (Medusa's emailpass checks the password), the platform gets its token,
 * and the token reads the order that customer placed on the store, and no other customer's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOrderRecord } from '../../../src/capabilities/order/order-record.js';
import { ORDER_READ } from '../../../src/security/auth/scopes.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { baseTenantConfig, testGateway, type TestGateway } from '../../helpers/gateway.js';
import { medusaAdapter, medusaSettings, medusaStore } from '../../helpers/medusa-store.js';
import { tenantKeyring } from '../../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { authorizeUrl, Browser, linkBuyer, pathOf, pkcePair, tokenRequest } from '../../identity/helpers/link.js';
import { payOnStorefront } from './storefront.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;
const CALLBACK = 'http://127.0.0.1/callback';
const ADDRESS = { streetAddress: '123 Main St', locality: 'Chicago', region: 'IL', country: 'US', postalCode: '60601' };

/** A customer account on Medusa, made the way a Medusa storefront makes one. */
async function registerCustomer(): Promise<{ email: string; password: string; customerId: string }> {
  const email = `buyer-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(store!.url + path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-publishable-api-key': store!.seed.publishableKey,
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };
  const { token } = await post('/auth/customer/emailpass/register', { email, password });
  const { customer } = await post('/store/customers', { email, first_name: 'Ann', last_name: 'Lee' }, token);
  return { email, password, customerId: customer.id as string };
}

suite("a Medusa tenant links buyers through Medusa's customer accounts (real server)", () => {
  let gw: TestGateway;
  let other: PlatformServer;

  beforeAll(async () => {
    other = await startPlatform();
    const platform = await startPlatform();
    const state = new MemoryStore();
    gw = await testGateway({
      platform,
      store: state,
      keyring: await tenantKeyring(),
      adapter: await medusaAdapter(store!, { state }),
      tenant: {
        ...baseTenantConfig,
        adapter: { type: 'medusa', settings: medusaSettings(store!), finishing: 'store_charged' },
        payment_handlers: [{ id: 'store_card', name: 'dev.proto.payments.store_card', type: 'store', instruments: ['card'] }],
        policies: { ...baseTenantConfig.policies, backend: { timeout_ms: 30_000 } },
        capabilities: { ...baseTenantConfig.capabilities, 'dev.proto.common.identity_linking': {} },
        identity_linking: { clients: [{ client_id: 'agent-app', profile: platform.url(), redirect_uris: [CALLBACK], name: 'Agent One' }] },
      },
      assembly: { identityDeps: { store: state, env: {} } },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await other?.close();
  });

  async function buyerToken(login: { email: string; password: string }): Promise<string> {
    const { code, verifier } = await linkBuyer(gw.app, { clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, ...login });
    const token = await tokenRequest(gw.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: 'agent-app',
    });
    expect(token.status).toBe(200);
    return token.body.access_token!;
  }

  /** The customer buys on the store (a handed-off cart paid on Medusa's storefront); another platform's checkout recorded her. */
  async function orderOf(customer: { email: string; customerId: string }): Promise<string> {
    const adapter = gw.app.tenants.registry.tenants[0]!.adapter;
    const request = { lines: [{ lineId: 'l1', variantId: store!.seed.variants.bouquet_roses!, quantity: 1 }], discountCodes: [] };
    const quote = await adapter.quote(request);
    const reference = `chk_${randomUUID()}`;
    const { url } = await adapter.checkoutUrl({ reference, ...(quote.handle && { handle: quote.handle }), quote: request });
    const orderId = await payOnStorefront(store!, new URL(url).searchParams.get('cart_id')!, ADDRESS, { email: customer.email });
    const tenant = gw.app.tenants.registry.tenants[0]!;
    await saveOrderRecord(
      { store: gw.store, tenant },
      { orderId, checkoutId: reference, profileUrl: other.url(), buyerId: customer.customerId, placedAt: Date.now() },
    );
    return orderId;
  }

  const getOrder = (orderId: string, token: string) =>
    gw.app.inject({
      method: 'GET',
      url: `/orders/${encodeURIComponent(orderId)}`,
      headers: { ...gw.headers(), authorization: `Bearer ${token}` },
    });

  it("links with Medusa's own password check; the token reads that customer's order and not another's", async () => {
    const ann = await registerCustomer();
    const bob = await registerCustomer();
    const annOrder = await orderOf(ann);
    const annToken = await buyerToken(ann);
    const read = await getOrder(annOrder, annToken);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().id).toBe(annOrder);
    const bobToken = await buyerToken(bob);
    const refused = await getOrder(annOrder, bobToken);
    expect(refused.json().id).toBeUndefined();
    expect(refused.json().messages?.[0]?.code ?? refused.json().code).toBe('unauthorized');
  });

  it("a wrong password and an unknown email get the login page's one message, and no code", async () => {
    const ann = await registerCustomer();
    const browser = new Browser(gw.app);
    const start = await browser.request(
      'GET',
      authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, challenge: pkcePair().challenge }),
    );
    const login = pathOf(start.headers.location as string);
    const wrong = await browser.request('POST', login, { email: ann.email, password: `${ann.password}x`, action: 'allow' });
    const unknown = await browser.request('POST', login, { email: `nobody-${ann.email}`, password: ann.password, action: 'allow' });
    for (const page of [wrong, unknown]) {
      expect(page.statusCode).toBe(401);
      expect(page.body).toContain('That email and password do not match an account of this store.');
      expect(page.headers.location).toBeUndefined();
    }
  });
});
