/**
 * The tenant's authorization server (upstream identity-linking.md, business side): metadata,
 * the authorization code flow with PKCE S256 only, iss in the response, exact redirect URIs with
 * the loopback port exception, client authentication, revocation; and the tokens at work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_MANAGE, ORDER_READ } from '../../src/security/auth/scopes.js';
import { getOrder as callGetOrder } from '../capabilities/order/order-client.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { authorizeUrl, Browser, linkBuyer, pathOf, pkcePair, tokenRequest } from './helpers/link.js';

const ISSUER = 'https://shop.example';
const RESOURCE_METADATA = `${ISSUER}/.well-known/oauth-protected-resource`;
const CALLBACK = 'http://127.0.0.1/callback';
const DEMO = { email: 'jane.smith@example.com', password: 'demo-flowers' };

let gw: OrderGateway;
let other: PlatformServer;
let stranger: PlatformServer;

beforeAll(async () => {
  const platform = await startPlatform();
  other = await startPlatform();
  stranger = await startPlatform();
  gw = await orderGateway({
    platform,
    tenant: {
      capabilities: { 'dev.proto.shopping.order': {}, 'dev.proto.common.identity_linking': {} },
      identity_linking: {
        clients: [
          { client_id: 'agent-app', profile: platform.url(), redirect_uris: [CALLBACK], name: 'Agent One' },
          {
            client_id: 'web-platform',
            profile: other.url(),
            redirect_uris: ['https://other.example/cb'],
            auth_method: 'client_secret_basic',
            client_secret: { env: 'WEB_SECRET' },
          },
        ],
      },
    },
    assemblyEnv: { WEB_SECRET: 'web-platform-secret' },
  });
});
afterAll(async () => {
  await gw.close();
  await other.close();
  await stranger.close();
});

const metadata = async () =>
  (await gw.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host: 'shop.example' } })).json();

describe('metadata', () => {
  it('RFC 8414 at /.well-known/oauth-authorization-server with the rules of the upstream document', async () => {
    const meta = await metadata();
    expect(meta).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth2/authorize`,
      token_endpoint: `${ISSUER}/oauth2/token`,
      revocation_endpoint: `${ISSUER}/oauth2/revoke`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      response_types_supported: ['code'],
    });
    expect(meta.scopes_supported).toEqual(expect.arrayContaining([ORDER_READ, ORDER_MANAGE]));
    expect(meta.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['none', 'private_key_jwt', 'client_secret_basic']));
    expect(meta.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
  });

  it('RFC 9728 protected resource metadata names the authorization server', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/.well-known/oauth-protected-resource', headers: { host: 'shop.example' } });
    expect(res.json()).toEqual({
      resource: ISSUER,
      authorization_servers: [ISSUER],
      scopes_supported: [ORDER_READ, ORDER_MANAGE],
      bearer_methods_supported: ['header'],
      resource_name: 'Test Shop',
    });
  });

  it('the profile advertises identity linking with config.scopes', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/.well-known/proto', headers: { host: 'shop.example' } });
    const linking = res.json().proto.capabilities['dev.proto.common.identity_linking'];
    expect(Object.keys(linking[0].config.scopes)).toEqual([ORDER_READ, ORDER_MANAGE]);
  });
});

describe('authorization code flow', () => {
  it('links a buyer: code, state and iss (byte-identical to the issuer) at the loopback redirect, whatever its port', async () => {
    const redirectUri = 'http://127.0.0.1:53682/callback';
    const { redirect, code, verifier } = await linkBuyer(gw.app, {
      clientId: 'agent-app',
      redirectUri,
      scope: ORDER_READ,
      state: 'xyz',
      ...DEMO,
    });
    expect(`${redirect.origin}${redirect.pathname}`).toBe(redirectUri);
    expect(redirect.searchParams.get('state')).toBe('xyz');
    expect(redirect.searchParams.get('iss')).toBe((await metadata()).issuer);
    const token = await tokenRequest(gw.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: 'agent-app',
    });
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({
      token_type: 'Bearer',
      scope: ORDER_READ,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
  });

  it('refuses a token request without a valid code_verifier (invalid_grant)', async () => {
    const { code } = await linkBuyer(gw.app, { clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, ...DEMO });
    const wrong = await tokenRequest(gw.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: pkcePair().verifier,
      client_id: 'agent-app',
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const { code: second } = await linkBuyer(gw.app, { clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, ...DEMO });
    const missing = await tokenRequest(gw.app, {
      grant_type: 'authorization_code',
      code: second,
      redirect_uri: CALLBACK,
      client_id: 'agent-app',
    });
    expect(missing.status).toBe(400);
    expect(['invalid_grant', 'invalid_request']).toContain(missing.body.error);
  });

  it('refuses plain PKCE and a missing code_challenge', async () => {
    const browser = new Browser(gw.app);
    const plain = await browser.request(
      'GET',
      authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, challenge: 'x'.repeat(43), method: 'plain' }),
    );
    expect(plain.statusCode).toBe(303);
    expect(new URL(plain.headers.location as string).searchParams.get('error')).toBe('invalid_request');
    const none = await browser.request('GET', authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ }));
    expect(new URL(none.headers.location as string).searchParams.get('error')).toBe('invalid_request');
    expect(new URL(none.headers.location as string).searchParams.get('iss')).toBe(ISSUER);
  });

  it('matches redirect URIs exactly: another path, host or a non-loopback port change is refused without redirecting', async () => {
    for (const redirectUri of [
      'http://127.0.0.1/other',
      'http://localhost/callback',
      'http://127.0.0.1/callback/',
      'https://127.0.0.1/callback',
    ]) {
      const res = await new Browser(gw.app).request(
        'GET',
        authorizeUrl({ clientId: 'agent-app', redirectUri, scope: ORDER_READ, challenge: pkcePair().challenge }),
      );
      expect(res.statusCode, redirectUri).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('This sign-in request cannot be completed');
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    }
    const web = await new Browser(gw.app).request(
      'GET',
      authorizeUrl({
        clientId: 'web-platform',
        redirectUri: 'https://other.example:8443/cb',
        scope: ORDER_READ,
        challenge: pkcePair().challenge,
      }),
    );
    expect(web.statusCode).toBe(400);
  });

  it('a wrong password shows the page again (401) and no code; a declined link answers access_denied', async () => {
    const browser = new Browser(gw.app);
    const start = await browser.request(
      'GET',
      authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, challenge: pkcePair().challenge }),
    );
    const login = pathOf(start.headers.location as string);
    const bad = await browser.request('POST', login, { email: DEMO.email, password: 'wrong', action: 'allow' });
    expect(bad.statusCode).toBe(401);
    expect(bad.body).toContain('do not match');
    const denied = await browser.request('POST', login, { action: 'deny' });
    const resumed = await browser.request('GET', pathOf(denied.headers.location as string));
    const back = new URL(resumed.headers.location as string);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('iss')).toBe(ISSUER);
    expect(back.searchParams.get('code')).toBeNull();
  });
});

describe('brute force', () => {
  it('after 5 failed logins for an account, even its right password is refused (429) until the window passes', async () => {
    const browser = new Browser(gw.app);
    const start = await browser.request(
      'GET',
      authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, challenge: pkcePair().challenge }),
    );
    const login = pathOf(start.headers.location as string);
    const attempt = (password: string) => browser.request('POST', login, { email: 'jane.doe@example.com', password, action: 'allow' });
    for (let i = 0; i < 5; i++) expect((await attempt(`guess-${i}`)).statusCode).toBe(401);
    const blocked = await attempt('demo-flowers');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toContain('Too many failed attempts');
    // The window is the store's: its clock moves on (and the old interaction expires with it).
    gw.advance(16 * 60_000);
    const linked = await linkBuyer(gw.app, {
      clientId: 'agent-app',
      redirectUri: CALLBACK,
      scope: ORDER_READ,
      email: 'jane.doe@example.com',
      password: 'demo-flowers',
    });
    expect(linked.code).not.toBe('');
  });
});

describe('the login page', () => {
  it('is server-rendered with a strict CSP naming the store, the platform and the scopes in plain words', async () => {
    const browser = new Browser(gw.app);
    const start = await browser.request(
      'GET',
      authorizeUrl({ clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, challenge: pkcePair().challenge }),
    );
    const page = await browser.request('GET', pathOf(start.headers.location as string));
    expect(page.headers['content-security-policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self' http:\/\/127\.0\.0\.1; frame-ancestors 'none'/,
    );
    expect(page.body).toContain('<title>Sign in to Test Shop</title>');
    expect(page.body).toContain('Agent One asks to link your Test Shop account.');
    expect(page.body).toContain('See your orders at this store, whichever assistant placed them');
    expect(page.body).toMatch(/<label for="email">Email<\/label>\s*<input id="email"/);
    expect(page.body).not.toContain('<script');
  });
});

describe('confidential clients', () => {
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  it('client_credentials with client_secret_basic gives a token that is the platform itself', async () => {
    const token = await tokenRequest(
      gw.app,
      { grant_type: 'client_credentials', scope: ORDER_READ },
      basic('web-platform', 'web-platform-secret'),
    );
    expect(token.status).toBe(200);
    const orderId = await gw.placeOrder({ profileUrl: other.url() });
    const res = await gw.app.inject({
      method: 'GET',
      url: `/orders/${orderId}`,
      headers: { ...gw.headers({ 'proto-agent': other.agent() }), authorization: `Bearer ${token.body.access_token}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('failed client authentication is invalid_client', async () => {
    const token = await tokenRequest(gw.app, { grant_type: 'client_credentials' }, basic('web-platform', 'not-the-secret'));
    expect(token).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const publicClient = await tokenRequest(gw.app, { grant_type: 'client_credentials', client_id: 'agent-app' });
    expect(publicClient.status).toBe(400);
  });
});

describe('tokens at work', () => {
  const getOrder = (orderId: string, agent: string, token?: string) =>
    gw.app.inject({
      method: 'GET',
      url: `/orders/${orderId}`,
      headers: { ...gw.headers({ 'proto-agent': agent }), ...(token && { authorization: `Bearer ${token}` }) },
    });

  async function buyerToken(scope = ORDER_READ) {
    const { code, verifier } = await linkBuyer(gw.app, { clientId: 'agent-app', redirectUri: CALLBACK, scope, ...DEMO });
    return (
      await tokenRequest(gw.app, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: 'agent-app',
      })
    ).body;
  }

  it("a buyer's order placed through one platform is readable by another with the buyer's order:read token, and no one else", async () => {
    const orderId = await gw.placeOrder({ profileUrl: other.url(), buyerId: 'cust_2' });
    const { access_token } = await buyerToken();
    expect((await getOrder(orderId, gw.platform.agent(), access_token)).statusCode).toBe(200);
    // Without the token the platform did not place it; another buyer's order is not reachable with it.
    const anonymous = await getOrder(orderId, gw.platform.agent());
    expect(anonymous.statusCode).toBe(401);
    const notHers = await gw.placeOrder({ profileUrl: other.url(), buyerId: 'cust_1' });
    const refused = await getOrder(notHers, gw.platform.agent(), access_token);
    expect(refused.json().messages?.[0]?.code ?? refused.json().code).toBe('unauthorized');
    // The token belongs to the platform it was issued to: for another it is not a valid token.
    expect((await getOrder(orderId, stranger.agent(), access_token)).statusCode).toBe(401);
  });

  it('401 identity_required with the Bearer challenge (realm, resource_metadata), error="invalid_token" for a bad token', async () => {
    const orderId = await gw.placeOrder({ buyerId: 'cust_2', profileUrl: other.url() });
    const none = await getOrder(orderId, gw.platform.agent());
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ messages: [{ code: 'identity_required' }] });
    expect(none.headers['www-authenticate']).toBe(
      `Bearer realm="${ISSUER}", resource_metadata="${ISSUER}/.well-known/oauth-protected-resource"`,
    );
    const bad = await getOrder(orderId, gw.platform.agent(), 'not-a-token-of-this-store');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ messages: [{ code: 'identity_required' }] });
    expect(bad.headers['www-authenticate']).toMatch(
      /^Bearer realm="https:\/\/shop\.example", error="invalid_token", error_description="[^"]+", resource_metadata=".+"$/,
    );
  });

  it('over MCP: the same outcomes, the challenge in the JSON-RPC error data', async () => {
    const orderId = await gw.placeOrder({ buyerId: 'cust_2', profileUrl: other.url() });
    const anonymous = await callGetOrder(gw, 'mcp', orderId, gw.platform);
    expect(anonymous.error?.data).toMatchObject({
      code: 'identity_required',
      http_status: 401,
      www_authenticate: `Bearer realm="${ISSUER}", resource_metadata="${RESOURCE_METADATA}"`,
    });
    const { access_token } = await buyerToken();
    const read = await callGetOrder(gw, 'mcp', orderId, gw.platform, { authorization: `Bearer ${access_token}` });
    expect(read.body.id).toBe(orderId);
  });

  it('403 insufficient_scope names the full required scope set', async () => {
    const orderId = await gw.placeOrder({ buyerId: 'cust_2' });
    const { access_token } = await buyerToken(ORDER_MANAGE);
    const res = await getOrder(orderId, gw.platform.agent(), access_token);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ messages: [{ code: 'insufficient_scope' }] });
    expect(res.headers['www-authenticate']).toBe(
      `Bearer realm="${ISSUER}", error="insufficient_scope", scope="${ORDER_READ}", resource_metadata="${RESOURCE_METADATA}"`,
    );
  });

  it('revoking the refresh token kills the access tokens issued from it', async () => {
    const orderId = await gw.placeOrder({ buyerId: 'cust_2', profileUrl: other.url() });
    const tokens = await buyerToken();
    expect((await getOrder(orderId, gw.platform.agent(), tokens.access_token)).statusCode).toBe(200);
    const revoked = await gw.app.inject({
      method: 'POST',
      url: '/oauth2/revoke',
      headers: { host: 'shop.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: tokens.refresh_token!, token_type_hint: 'refresh_token', client_id: 'agent-app' }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    const after = await getOrder(orderId, gw.platform.agent(), tokens.access_token);
    expect(after.statusCode).toBe(401);
    expect(after.headers['www-authenticate']).toContain('error="invalid_token"');
    const refresh = await tokenRequest(gw.app, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: 'agent-app',
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});
