/**
 * A federated login source: a Shopify tenant links its buyers through Shopify's customer accounts
 * (the simulator's OpenID Connect provider), with openid-client doing the relying party's part:
 * PKCE S256, state, nonce, the ID token verified (signature, iss, aud, exp, nonce). The identity
 * is bound to the grant, and the buyer's token then reads the order Shopify's customer placed.
 * A tenant without any login source does not advertise identity linking.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveOrderRecord } from '../../src/capabilities/order/order-record.js';
import { ORDER_READ } from '../../src/security/auth/scopes.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import type { IdTokenFault } from '../../simulators/shopify/customer-accounts.js';
import { shopifySetup, type ShopifySetup } from '../adapters/shopify/helpers.js';
import { baseTenantConfig, testGateway, type TestGateway } from '../helpers/gateway.js';
import { tenantKeyring } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { stubAdapter } from '../helpers/stub-adapter.js';
import { authorizeUrl, Browser, pathOf, pkcePair, tokenRequest } from './helpers/link.js';

const CALLBACK = 'http://127.0.0.1/callback';
const GATEWAY_CALLBACK = 'https://shop.example/oauth2/federated/callback';
const SHOPIFY_CLIENT = 'shp_3c1d9a47-gateway';
const JANE = 'jane.smith@example.com';

let shopify: ShopifySetup;
let gw: TestGateway;
let other: PlatformServer;

beforeAll(async () => {
  shopify = await shopifySetup();
  shopify.sim.customerAccounts.registerClient({ clientId: SHOPIFY_CLIENT, redirectUris: [GATEWAY_CALLBACK] });
  other = await startPlatform();
  const platform = await startPlatform();
  const store = new MemoryStore();
  gw = await testGateway({
    platform,
    store,
    adapter: shopify.adapter,
    keyring: await tenantKeyring(),
    tenant: {
      capabilities: { ...baseTenantConfig.capabilities, 'dev.proto.common.identity_linking': {} },
      identity_linking: {
        clients: [{ client_id: 'agent-app', profile: platform.url(), redirect_uris: [CALLBACK], name: 'Agent One' }],
        federated: {
          issuer: shopify.sim.customerAccounts.issuer,
          discovery_url: `${shopify.sim.url}/.well-known/openid-configuration`,
          client_id: SHOPIFY_CLIENT,
          scopes: ['openid', 'email', 'customer-account-api:full'],
          label: 'Petal & Stem',
        },
      },
    },
    assembly: { identityDeps: { store, env: {} } },
  });
});
afterAll(async () => {
  await gw?.close();
  await other?.close();
  await shopify?.close();
});

/** Posts a form to the simulator as the buyer's browser does. */
const postForm = (url: string, form: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

/** At Shopify: the buyer gives the email, reads the mailed code and types it; answers the redirect back to the gateway. */
async function signInAtShopify(authorize: string, email: string): Promise<string> {
  const page = await (await fetch(authorize, { redirect: 'manual' })).text();
  const loginState = /name="login_state" value="([^"]+)"/.exec(page)?.[1];
  if (!loginState) throw new Error(`no login form at Shopify: ${page}`);
  const origin = new URL(authorize).origin;
  const path = new URL(authorize).pathname.replace(/\/oauth\/authorize$/, '');
  await postForm(`${origin}${path}/login`, { login_state: loginState, email });
  const code = shopify.sim.customerAccounts.codes.get(email)!;
  const back = await postForm(`${origin}${path}/login/code`, { login_state: loginState, code });
  expect(back.status).toBe(302);
  return back.headers.get('location')!;
}

interface Started {
  browser: Browser;
  /** The login page's path. */
  login: string;
  /** Where the "Sign in with" link sent the browser: Shopify's authorization URL. */
  authorize: URL;
  verifier: string;
}

async function startLink(scope = ORDER_READ): Promise<Started> {
  const browser = new Browser(gw.app);
  const { verifier, challenge } = pkcePair();
  const start = await browser.request('GET', authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope, challenge }));
  const login = pathOf(start.headers.location as string);
  const page = await browser.request('GET', login);
  const href = /<a class="federated" href="([^"]+)"/.exec(page.body)?.[1];
  if (!href) throw new Error(`no federated link on the login page: ${page.body}`);
  const toShopify = await browser.request('GET', href.replace(/&amp;/g, '&'));
  expect(toShopify.statusCode).toBe(303);
  return { browser, login, authorize: new URL(toShopify.headers.location as string), verifier };
}

/** Back at the gateway from Shopify: the callback, then the interaction's own page; answers the last response. */
async function returnToGateway(browser: Browser, location: string) {
  const callback = await browser.request('GET', pathOf(location));
  expect(callback.statusCode).toBe(303);
  return browser.request('GET', pathOf(callback.headers.location as string));
}

/** The whole link: the platform's code and verifier. */
async function linkThroughShopify(email = JANE) {
  const { browser, authorize, verifier } = await startLink();
  const finished = await returnToGateway(browser, await signInAtShopify(authorize.href, email));
  expect(finished.statusCode, finished.body).toBe(303);
  const resumed = await browser.request('GET', pathOf(finished.headers.location as string));
  const redirect = new URL(resumed.headers.location as string);
  return { redirect, code: redirect.searchParams.get('code') ?? '', verifier };
}

describe('a federated login through Shopify customer accounts', () => {
  it('the login page offers "Sign in with <store>" and no password form when the store has no password login', async () => {
    const browser = new Browser(gw.app);
    const start = await browser.request(
      'GET',
      authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, challenge: pkcePair().challenge }),
    );
    const login = pathOf(start.headers.location as string);
    const page = await browser.request('GET', login);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Sign in with Petal &amp; Stem and allow');
    expect(page.body).not.toContain('type="password"');
    const posted = await browser.request('POST', login, { email: JANE, password: 'demo-flowers', action: 'allow' });
    expect(posted.statusCode).toBe(400);
    expect(posted.body).toContain('signs you in with Petal &amp; Stem');
  });

  it("sends the buyer to Shopify's authorize endpoint with PKCE S256, a state, a nonce and the configured scopes", async () => {
    const { authorize } = await startLink();
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${shopify.sim.customerAccounts.issuer}/oauth/authorize`);
    const params = authorize.searchParams;
    expect(params.get('client_id')).toBe(SHOPIFY_CLIENT);
    expect(params.get('redirect_uri')).toBe(GATEWAY_CALLBACK);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('scope')).toBe('openid email customer-account-api:full');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it("links the Shopify customer; the buyer's token reads the order that customer placed through another platform", async () => {
    // Jane buys at the shop; another platform's checkout recorded her (Shopify's customer id) as the buyer.
    const [rose] = (await shopify.adapter.search({ text: 'rose', limit: 1 })).products;
    const request = { lines: [{ lineId: 'l1', variantId: rose!.variants[0]!.id, quantity: 1 }], discountCodes: [] };
    const quote = await shopify.adapter.quote(request);
    const reference = `chk_${randomUUID()}`;
    const { url } = await shopify.adapter.checkoutUrl({ reference, handle: quote.handle!, quote: request });
    await shopify.sim.pay(url, { email: JANE });
    const { orderId } = (await shopify.adapter.findOrderByReference(reference))!;
    const tenant = gw.app.tenants.registry.tenants[0]!;
    const janeId = shopify.sim.customerAccounts.customerId(JANE)!;
    await saveOrderRecord(
      { store: gw.store, tenant },
      { orderId, checkoutId: reference, profileUrl: other.url(), buyerId: janeId, placedAt: Date.now() },
    );

    const { redirect, code, verifier } = await linkThroughShopify();
    expect(redirect.searchParams.get('iss')).toBe('https://shop.example');
    const token = await tokenRequest(gw.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: 'agent-app',
    });
    expect(token.status).toBe(200);
    const read = await gw.app.inject({
      method: 'GET',
      url: `/orders/${encodeURIComponent(orderId)}`,
      headers: { ...gw.headers(), authorization: `Bearer ${token.body.access_token}` },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().id).toBe(orderId);
    // Another customer linked the same way reads none of Jane's orders.
    const john = await linkThroughShopify('john.doe@example.com');
    const johnToken = await tokenRequest(gw.app, {
      grant_type: 'authorization_code',
      code: john.code,
      redirect_uri: CALLBACK,
      code_verifier: john.verifier,
      client_id: 'agent-app',
    });
    const refused = await gw.app.inject({
      method: 'GET',
      url: `/orders/${encodeURIComponent(orderId)}`,
      headers: { ...gw.headers(), authorization: `Bearer ${johnToken.body.access_token}` },
    });
    expect(refused.json().id).toBeUndefined();
    expect(refused.json().messages?.[0]?.code ?? refused.json().code).toBe('unauthorized');
  });

  it.each<[IdTokenFault, string]>([
    ['aud', 'another audience'],
    ['iss', 'another issuer'],
    ['nonce', 'another nonce'],
    ['exp', 'an expired token'],
    ['signature', 'a key not in the JWKS'],
  ])('refuses an ID token with %s (%s): the login page again, no code for the platform', async (fault) => {
    const { browser, authorize } = await startLink();
    shopify.sim.customerAccounts.injectIdTokenFault(fault);
    const finished = await returnToGateway(browser, await signInAtShopify(authorize.href, JANE));
    expect(finished.statusCode).toBe(401);
    expect(finished.body).toContain('Petal &amp; Stem could not confirm who you are');
    expect(finished.headers.location).toBeUndefined();
  });

  it('honours a callback once: a replayed one is refused', async () => {
    const { browser, authorize } = await startLink();
    const location = await signInAtShopify(authorize.href, JANE);
    const first = await browser.request('GET', pathOf(location));
    const firstReturn = pathOf(first.headers.location as string);
    expect((await browser.request('GET', firstReturn)).statusCode).toBe(303);
    const replay = await browser.request('GET', pathOf(location));
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('This sign-in attempt is unknown, was already used or has expired.');
    expect(replay.headers['content-security-policy']).toMatch(/^default-src 'none'/);
  });

  it("a buyer who cancels at Shopify sees the gateway's page again, saying so", async () => {
    const { browser, authorize } = await startLink();
    const back = new URL(GATEWAY_CALLBACK);
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('state', authorize.searchParams.get('state')!);
    const page = await returnToGateway(browser, back.href);
    expect(page.statusCode).toBe(401);
    expect(page.body).toContain('Sign-in with Petal &amp; Stem was cancelled.');
  });

  it('a provider that cannot be reached: the login page says so (502), nothing crashes', async () => {
    const store = new MemoryStore();
    const down = await testGateway({
      store,
      adapter: shopify.adapter,
      keyring: await tenantKeyring(),
      tenant: {
        capabilities: { ...baseTenantConfig.capabilities, 'dev.proto.common.identity_linking': {} },
        identity_linking: {
          clients: [{ client_id: 'agent-app', profile: 'https://agent.example/profile', redirect_uris: [CALLBACK] }],
          federated: { issuer: 'http://127.0.0.1:9/authentication/1', client_id: SHOPIFY_CLIENT, label: 'Petal & Stem' },
        },
      },
      assembly: { identityDeps: { store, env: {} } },
    });
    try {
      const browser = new Browser(down.app);
      const start = await browser.request(
        'GET',
        authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, challenge: pkcePair().challenge }),
      );
      const res = await browser.request('GET', `${pathOf(start.headers.location as string)}/federated`);
      expect(res.statusCode).toBe(502);
      expect(res.body).toContain('Petal &amp; Stem cannot be reached right now');
    } finally {
      await down.close();
    }
  });
});

describe('a tenant without a login source', () => {
  it('does not advertise identity linking: no capability in the profile, no authorization server', async () => {
    const plain = await testGateway({ adapter: stubAdapter(), keyring: await tenantKeyring() });
    try {
      const profile = await plain.app.inject({ method: 'GET', url: '/.well-known/proto', headers: { host: 'shop.example' } });
      expect(profile.statusCode).toBe(200);
      expect(profile.json().proto.capabilities['dev.proto.common.identity_linking']).toBeUndefined();
      for (const url of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource', '/oauth2/authorize']) {
        expect((await plain.app.inject({ method: 'GET', url, headers: { host: 'shop.example' } })).statusCode, url).toBe(404);
      }
    } finally {
      await plain.close();
    }
  });

  it('that lists the capability anyway does not start, and the error names both ways to give it one', async () => {
    const error = await testGateway({
      adapter: stubAdapter(),
      keyring: await tenantKeyring(),
      tenant: { capabilities: { ...baseTenantConfig.capabilities, 'dev.proto.common.identity_linking': {} } },
      assembly: { identityDeps: { store: new MemoryStore(), env: {} } },
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/has no customer login \(authenticateCustomer\).*\$\.identity_linking\.federated/);
  });
});
