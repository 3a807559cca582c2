/**
 * Signing out of a tenant's authorization server (/oauth2/logout): pages with the login page's
 * headers (a CSP that forbids framing and every other origin, nosniff, no referrer, no caching),
 * no script and nothing loaded from elsewhere; the sign-out happens only by the buyer's POST
 * carrying the page's CSRF token, never by a page submitting itself.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_READ } from '../../src/security/auth/scopes.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { Browser, linkBuyer, pathOf, tokenRequest } from './helpers/link.js';

const CALLBACK = 'http://127.0.0.1/callback';
const JANE = { email: 'jane.smith@example.com', password: 'demo-flowers' };

let gw: OrderGateway;
beforeAll(async () => {
  gw = await orderGateway({
    tenant: {
      capabilities: { 'dev.proto.shopping.order': {}, 'dev.proto.common.identity_linking': {} },
      identity_linking: {
        clients: [{ client_id: 'agent-app', profile: 'https://agent.example/.well-known/proto', redirect_uris: [CALLBACK] }],
      },
    },
  });
});
afterAll(() => gw.close());

/** A browser in which Jane signed in and allowed the agent; the agent's tokens. */
async function signedIn() {
  const browser = new Browser(gw.app);
  const { code, verifier } = await linkBuyer(gw.app, { clientId: 'agent-app', redirectUri: CALLBACK, scope: ORDER_READ, ...JANE }, browser);
  const tokens = await tokenRequest(gw.app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
    client_id: 'agent-app',
  });
  expect(tokens.status).toBe(200);
  return { browser, refresh: tokens.body.refresh_token! };
}

/** The login page's headers, and a page that runs nothing and loads nothing. */
function expectLoginPageHeaders(res: LightMyRequestResponse, what: string): void {
  const csp = String(res.headers['content-security-policy']);
  expect(csp, what).toMatch(
    /^default-src 'none'; style-src 'sha256-[\w+/=]+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
  );
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  expect(res.headers['cache-control'], what).toMatch(/no-store/);
  expect(res.body, what).not.toMatch(/<script|@import|https?:\/\/(?!shop\.example\/)/);
}

const refreshWorks = async (refresh: string) =>
  (await tokenRequest(gw.app, { grant_type: 'refresh_token', refresh_token: refresh, client_id: 'agent-app' })).status === 200;

describe('/oauth2/logout', () => {
  it('asks a signed-in buyer, in a page with the login page’s headers, and signs out only on her POST with its token', async () => {
    const { browser } = await signedIn();
    const page = await browser.request('GET', '/oauth2/logout');
    expect(page.statusCode).toBe(200);
    expectLoginPageHeaders(page, 'the question');
    const form =
      /<form id="op\.logoutForm" method="post" action="([^"]+)"><input type="hidden" name="xsrf" value="([^"]+)"\/><\/form>/.exec(
        page.body,
      );
    expect(form).not.toBeNull();
    expect(page.body).toMatch(/<button type="submit" form="op\.logoutForm" name="logout" value="yes">/);

    const done = await browser.request('POST', pathOf(form![1]!), { xsrf: form![2]!, logout: 'yes' });
    expect(done.statusCode).toBe(303);
    const success = await browser.request('GET', pathOf(done.headers.location as string));
    expect(success.statusCode).toBe(200);
    expectLoginPageHeaders(success, 'the success page');
    expect(success.body).toContain('Signed out');
    // Signed out: asking again finds no one to sign out.
    expect((await browser.request('GET', '/oauth2/logout')).body).not.toContain('op.logoutForm');
  });

  it('a POST without the page’s token (a cross-site form) signs no one out and revokes nothing', async () => {
    const { browser, refresh } = await signedIn();
    await browser.request('GET', '/oauth2/logout'); // the page was shown, its token issued
    const forged = await browser.request('POST', '/oauth2/logout/confirm', { logout: 'yes' });
    expect(forged.statusCode).toBe(400);
    expect((await browser.request('GET', '/oauth2/logout')).body).toContain('op.logoutForm');
    expect(await refreshWorks(refresh)).toBe(true);
  });

  it('a browser that is not signed in gets a page saying so, never a form that submits itself', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await new Browser(gw.app).request(method, '/oauth2/logout', method === 'POST' ? {} : undefined);
      expect(res.statusCode, method).toBe(200);
      expectLoginPageHeaders(res, method);
      expect(res.body, method).not.toMatch(/<form|xsrf/);
      expect(res.body, method).toContain('not signed in');
    }
  });
});
